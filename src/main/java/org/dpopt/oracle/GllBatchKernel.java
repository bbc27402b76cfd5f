package org.dpopt.oracle;

import org.dpopt.data.Dataset;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.ejml.data.DMatrixRMaj;

/**
 * The clip-and-sum kernel of a generalized linear loss, ordered for memory. The batch is taken in chunks;
 * for each chunk, first the row numbers, labels and precomputed row norms of its contributing records are
 * read (independent loads, which the processor overlaps), then the chunk's dots four rows at a time
 * ({@link Dataset#dots}: the reads of four scattered rows overlap), then every row's coefficient (the
 * derivative, the clipping by the row norm, since the gradient φ′·x has norm |φ′|·‖x‖, and the weight),
 * and last the updates of the sum, four rows per pass over it ({@link Dataset#addScaledRows4}) in batch
 * order. Every number is computed by the same operations in the same order as the row-by-row loop (dot,
 * φ′, clip, axpy per row), so the sums are the same bits; only the order of the memory reads and of
 * independent work changes. Allocation-free.
 */
final class GllBatchKernel {
    private GllBatchKernel() {
    }

    /**
     * out ← out + Σ ω_a·clip_C(φ′(⟨w, x_{idx[a]}⟩, y)·x_{idx[a]}) over the contributing slots of [from, to).
     *
     * @param b the chunk buffers
     * @return the number of clipped contributions
     */
    static int addClipped(GeneralizedLinearLoss gll, DMatrixRMaj w, Dataset data, int[] idx, int from, int to,
            double[] weights, double clip, DMatrixRMaj out, BatchBuffers b) {
        int chunk = b.chunk();
        int rows = data.size();
        int clipped = 0;
        int a = from;
        while (a < to) {
            // phase 1: the chunk's contributing records, their labels and norms read back to back
            int m = 0;
            for (; a < to && m < chunk; a++) {
                int i = idx[a];
                if ((weights != null && weights[a] == 0) || i >= rows) {
                    continue;
                }
                b.slots[m] = a;
                b.rows[m] = i;
                b.labels[m] = data.label(i);
                b.norms[m] = data.rowNorm(i);
                m++;
            }
            // phase 2: the dots, four rows at a time
            data.dots(b.rows, m, w.data, 0, b.dots);
            // phase 3: each row's coefficient (φ′, clip, weight), then the updates in batch order
            clipped += coefficients(gll, weights, clip, b, m);
            int k = 0;
            for (; k + 3 < m; k += 4) {
                data.addScaledRows4(b.rows[k], b.rows[k + 1], b.rows[k + 2], b.rows[k + 3], b.dots[k], b.dots[k + 1],
                        b.dots[k + 2], b.dots[k + 3], out.data, 0);
            }
            for (; k < m; k++) {
                data.addScaledRow(b.rows[k], b.dots[k], out);
            }
        }
        return clipped;
    }

    /** Replaces each of the chunk's m dots by ω·clip-scale·φ′ (the row's coefficient); returns how many clipped. */
    private static int coefficients(GeneralizedLinearLoss gll, double[] weights, double clip, BatchBuffers b, int m) {
        int clipped = 0;
        for (int k = 0; k < m; k++) {
            double omega = weights == null ? 1.0 : weights[b.slots[k]];
            double g = gll.derivative(b.dots[k], b.labels[k]);
            double norm = Math.abs(g) * b.norms[k];
            double scale = 1.0;
            if (norm > clip) {
                scale = clip / norm;
                clipped++;
            }
            b.dots[k] = g * scale * omega;
        }
        return clipped;
    }
}
