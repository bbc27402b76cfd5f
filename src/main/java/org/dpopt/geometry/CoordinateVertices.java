package org.dpopt.geometry;

import org.ejml.data.DMatrixRMaj;

/**
 * A polytope whose vertices are r·(±e_k) in ℝ^d, for every d: vertex j has the single non-zero entry
 * {@link #vertexEntry}(j) ∈ {r, −r} at coordinate {@link #vertexCoordinate}(j), so every vertex has ℓ1
 * and ℓ2 norm r.
 */
interface CoordinateVertices extends Polytope {
    /** The radius r. */
    double r();

    /** The coordinate of vertex j's non-zero entry. */
    int vertexCoordinate(int j);

    /** Vertex j's non-zero entry (r or −r). */
    double vertexEntry(int j);

    @Override
    default void vertex(int j, DMatrixRMaj out) {
        int d = Polytopes.length(out);
        java.util.Arrays.fill(out.data, 0, d, 0.0);
        out.data[vertexCoordinate(j)] = vertexEntry(j);
    }

    @Override
    default void moveToward(int j, double mu, DMatrixRMaj w) {
        double[] x = w.data;
        int d = w.numRows;
        for (int k = 0; k < d; k++) {
            x[k] *= 1 - mu;
        }
        x[vertexCoordinate(j)] += mu * vertexEntry(j);
    }

    @Override
    default double maxVertexNorm2(int d) {
        return r();
    }

    @Override
    default double maxVertexNorm1(int d) {
        return r();
    }

    @Override
    default double radius(int d) {
        return r();
    }
}
