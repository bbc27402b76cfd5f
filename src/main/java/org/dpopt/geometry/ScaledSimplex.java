package org.dpopt.geometry;

import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * The scaled simplex conv{r e_k} = {w ≥ 0, Σ w = r} in every dimension d (J = d).
 *
 * @param r the radius &gt; 0 (the common ℓ1 norm of its points)
 */
record ScaledSimplex(double r) implements CoordinateVertices {
    ScaledSimplex {
        Checks.positive("r", r);
    }

    @Override
    public int vertexCoordinate(int j) {
        return j;
    }

    @Override
    public double vertexEntry(int j) {
        return r;
    }

    @Override
    public int vertexCount(int d) {
        return Checks.atLeastOne("dimension", d);
    }

    @Override
    public double score(int j, DMatrixRMaj g) {
        return r * g.data[j];
    }

    @Override
    public void project(DMatrixRMaj w) {
        int d = Polytopes.length(w);
        double[] x = w.data;
        double tau = Polytopes.threshold(x, d, r, false);
        for (int k = 0; k < d; k++) {
            x[k] = Math.max(x[k] - tau, 0.0);
        }
    }

    /** The ℓ2 diameter: r√2 between two vertices, 0 in dimension 1 (a single point). */
    @Override
    public double diameter(int d) {
        return Checks.atLeastOne("dimension", d) == 1 ? 0 : r * Math.sqrt(2);
    }

    @Override
    public boolean contains(DMatrixRMaj w, double tol) {
        if (w.numCols != 1) {
            return false;
        }
        for (int k = 0; k < w.numRows; k++) {
            if (w.data[k] < -tol) {
                return false;
            }
        }
        return Math.abs(Polytopes.entrySum(w, false) - r) <= tol;
    }

    @Override
    public String toString() {
        return "simplex of radius " + r;
    }
}
