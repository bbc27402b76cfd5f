package org.dpopt.geometry;

import org.ejml.data.DMatrixRMaj;

/**
 * A polytope W = conv(V) ⊂ ℝ^d given by a finite vertex set V = {v_0, …, v_{J−1}}, with the linear
 * minimization oracle (LMO) {@code argmin_{v∈V} ⟨v, g⟩} that Frank–Wolfe methods need. Since a linear
 * function attains its minimum over conv(V) at a vertex, the LMO over W is the LMO over V.
 *
 * <p>Like every {@link ConvexSet}, a polytope is described independently of d where it can be: the ℓ1
 * ball and the simplex of radius r exist in every dimension (their vertex count and norms are answered
 * for a given d, and vector arguments carry their own length), an explicit vertex list in its own
 * dimension only (it refuses every other d).
 *
 * <p>All methods are allocation-free; scores of all J vertices cost O(J) for the ℓ1 ball and the
 * simplex (one coordinate per vertex) and O(J·d) for an explicit vertex list.
 */
public interface Polytope extends ConvexSet {

    /**
     * J, the number of vertices of W ⊂ ℝ^d.
     *
     * @throws IllegalArgumentException if W does not exist in ℝ^d (a vertex list of another dimension)
     */
    int vertexCount(int d);

    /** Writes v_j ∈ ℝ^d into out (d×1, d = out's length). Modified: out. */
    void vertex(int j, DMatrixRMaj out);

    /** ⟨v_j, g⟩ in the dimension of g. Not modified: g. */
    double score(int j, DMatrixRMaj g);

    /** out[j] = ⟨v_j, g⟩ for j &lt; J (d = g's length). Modified: out (length ≥ J). Not modified: g. */
    default void scores(DMatrixRMaj g, double[] out) {
        int count = vertexCount(g.numRows);
        for (int j = 0; j < count; j++) {
            out[j] = score(j, g);
        }
    }

    /** w ← (1 − μ) w + μ v_j. Modified: w. */
    void moveToward(int j, double mu, DMatrixRMaj w);

    /** The exact LMO: the smallest index j minimizing ⟨v_j, g⟩. Not modified: g. */
    default int lmo(DMatrixRMaj g) {
        int count = vertexCount(g.numRows);
        int best = 0;
        double bestScore = score(0, g);
        for (int j = 1; j < count; j++) {
            double s = score(j, g);
            if (s < bestScore) {
                bestScore = s;
                best = j;
            }
        }
        return best;
    }

    /** max_j ‖v_j‖₂ in ℝ^d (the public constant score sensitivities are computed from). */
    double maxVertexNorm2(int d);

    /** max_j ‖v_j‖₁ in ℝ^d. */
    double maxVertexNorm1(int d);

    @Override
    default boolean isBounded() {
        return true;
    }

    /**
     * The Frank–Wolfe gap max_{v∈W} ⟨g, w − v⟩ = ⟨g, w⟩ − min_j ⟨v_j, g⟩ (≥ 0 for w ∈ W). Not modified:
     * g, w.
     */
    default double frankWolfeGap(DMatrixRMaj g, DMatrixRMaj w) {
        double gw = 0;
        for (int k = 0; k < g.numRows; k++) {
            gw += g.data[k] * w.data[k];
        }
        return gw - score(lmo(g), g);
    }
}
