package org.dpopt.geometry;

import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * The ℓ1 ball {‖w‖₁ ≤ r} in every dimension d: vertices ±r e_k (J = 2d; index 2k is +r e_k, 2k+1 is
 * −r e_k).
 *
 * @param r the radius &gt; 0
 */
record L1Ball(double r) implements CoordinateVertices {
    L1Ball {
        Checks.positive("r", r);
    }

    @Override
    public int vertexCoordinate(int j) {
        return j >> 1;
    }

    @Override
    public double vertexEntry(int j) {
        return (j & 1) == 0 ? r : -r;
    }

    @Override
    public boolean isSignSymmetric() {
        return true;
    }

    @Override
    public int vertexCount(int d) {
        return 2 * Checks.atLeastOne("dimension", d);
    }

    @Override
    public double score(int j, DMatrixRMaj g) {
        double v = r * g.data[j >> 1];
        return (j & 1) == 0 ? v : -v;
    }

    @Override
    public void scores(DMatrixRMaj g, double[] out) {
        int d = g.numRows;
        for (int k = 0; k < d; k++) {
            double v = r * g.data[k];
            out[2 * k] = v;
            out[2 * k + 1] = -v;
        }
    }

    @Override
    public int lmo(DMatrixRMaj g) {
        // min over ±r g_k is −r max|g_k|: O(d), no scores buffer
        int d = g.numRows;
        int best = 0;
        double bestAbs = -1;
        for (int k = 0; k < d; k++) {
            double a = Math.abs(g.data[k]);
            if (a > bestAbs) {
                bestAbs = a;
                best = k;
            }
        }
        return g.data[best] > 0 ? 2 * best + 1 : 2 * best;
    }

    @Override
    public void project(DMatrixRMaj w) {
        int d = Polytopes.length(w);
        double[] x = w.data;
        double s = 0;
        for (int k = 0; k < d; k++) {
            s += Math.abs(x[k]);
        }
        if (s <= r) {
            return;
        }
        double tau = Polytopes.threshold(x, d, r, true);
        for (int k = 0; k < d; k++) {
            double a = Math.abs(x[k]) - tau;
            x[k] = a > 0 ? Math.copySign(a, x[k]) : 0.0;
        }
    }

    @Override
    public double diameter(int d) {
        Checks.atLeastOne("dimension", d);
        return 2 * r;
    }

    @Override
    public boolean contains(DMatrixRMaj w, double tol) {
        return w.numCols == 1 && Polytopes.entrySum(w, true) <= r + tol;
    }

    @Override
    public String toString() {
        return "l1 ball of radius " + r;
    }
}
