package org.dpopt.optim.frankwolfe;

import org.dpopt.data.Dataset;
import org.dpopt.geometry.Polytope;
import org.ejml.data.DMatrixRMaj;

/**
 * The vertex v_j a step moved toward, kept as its non-zero entries, so that the margin update
 * ⟨w + μ(v_j − w), x_i⟩ = (1 − μ)⟨w, x_i⟩ + μ⟨v_j, x_i⟩ costs O(nnz(v_j)) per row: O(1) for the
 * coordinate vertices of the ℓ1 ball and the simplex. Loading a vertex costs O(d), once per step.
 * Mutable, one per run.
 */
final class ChosenVertex {
    private final DMatrixRMaj dense;
    private final int[] index;
    private final double[] value;
    private int count;

    ChosenVertex(int d) {
        this.dense = new DMatrixRMaj(d, 1);
        this.index = new int[d];
        this.value = new double[d];
    }

    /** Loads v_j of the polytope. */
    void load(Polytope set, int j) {
        set.vertex(j, dense);
        count = 0;
        for (int k = 0; k < dense.numRows; k++) {
            double v = dense.data[k];
            if (v != 0) {
                index[count] = k;
                value[count] = v;
                count++;
            }
        }
    }

    /** ⟨v_j, x_i⟩ for row i of the data. */
    double dotRow(Dataset data, int i) {
        if (count == 0) {
            return 0;
        }
        double s = value[0] * data.feature(i, index[0]);
        for (int a = 1; a < count; a++) {
            s += value[a] * data.feature(i, index[a]);
        }
        return s;
    }
}
