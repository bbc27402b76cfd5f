package org.dpopt.geometry;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * A polytope W = conv(V) ⊂ ℝ^d given by a finite vertex set V = {v_0, …, v_{J−1}}, with the linear
 * minimization oracle (LMO) {@code argmin_{v∈V} ⟨v, g⟩} that Frank–Wolfe methods need. Since a linear
 * function attains its minimum over conv(V) at a vertex, the LMO over W is the LMO over V.
 *
 * <p>All methods are allocation-free; scores of all J vertices cost O(J) for the ℓ1 ball and the
 * simplex (one coordinate per vertex) and O(J·d) for an explicit vertex list.
 */
public interface Polytope extends ConvexSet {

    /** The ambient dimension d. */
    int dimension();

    /** The ℓ2 diameter (a polytope has its own dimension). */
    double diameter();

    /** sup_{w∈W} ‖w‖₂. */
    double radius();

    /** {@link #diameter()}; d must be {@link #dimension()}. */
    @Override
    default double diameter(int d) {
        checkDimension(d);
        return diameter();
    }

    /** {@link #radius()}; d must be {@link #dimension()}. */
    @Override
    default double radius(int d) {
        checkDimension(d);
        return radius();
    }

    @Override
    default boolean isBounded() {
        return true;
    }

    private void checkDimension(int d) {
        if (d != dimension()) {
            throw Checks.fail("dimension", "the polytope's dimension " + dimension(), d);
        }
    }

    /** The number of vertices J. */
    int vertexCount();

    /** Writes v_j into out (d×1). Modified: out. */
    void vertex(int j, DMatrixRMaj out);

    /** ⟨v_j, g⟩. Not modified: g. */
    double score(int j, DMatrixRMaj g);

    /** out[j] = ⟨v_j, g⟩ for j &lt; J. Modified: out (length ≥ J). Not modified: g. */
    default void scores(DMatrixRMaj g, double[] out) {
        for (int j = 0; j < vertexCount(); j++) {
            out[j] = score(j, g);
        }
    }

    /** ⟨v_j, x_i⟩ for row i of a dataset (O(1) for coordinate vertices). */
    double vertexDotRow(int j, Dataset data, int i);

    /** w ← (1 − μ) w + μ v_j. Modified: w. */
    void moveToward(int j, double mu, DMatrixRMaj w);

    /** The exact LMO: the smallest index j minimizing ⟨v_j, g⟩. Not modified: g. */
    default int lmo(DMatrixRMaj g) {
        int best = 0;
        double bestScore = score(0, g);
        for (int j = 1; j < vertexCount(); j++) {
            double s = score(j, g);
            if (s < bestScore) {
                bestScore = s;
                best = j;
            }
        }
        return best;
    }

    /** max_j ‖v_j‖₂ (the public constant score sensitivities are computed from). */
    double maxVertexNorm2();

    /** max_j ‖v_j‖₁. */
    double maxVertexNorm1();

    /**
     * The Frank–Wolfe gap max_{v∈W} ⟨g, w − v⟩ = ⟨g, w⟩ − min_j ⟨v_j, g⟩ (≥ 0 for w ∈ W). Not modified:
     * g, w.
     */
    default double frankWolfeGap(DMatrixRMaj g, DMatrixRMaj w) {
        double gw = 0;
        for (int k = 0; k < dimension(); k++) {
            gw += g.data[k] * w.data[k];
        }
        return gw - score(lmo(g), g);
    }
}
