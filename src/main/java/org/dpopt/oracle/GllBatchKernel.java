package org.dpopt.oracle;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.RowKernels;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.ejml.data.DMatrixRMaj;

/**
 * The clip-and-sum kernel of a generalized linear loss, ordered for memory: the batch is taken in chunks;
 * for each chunk every row's loads are issued before any dependent arithmetic (the rows are copied into a
 * contiguous buffer, or, without a buffer, all the chunk's dots are computed first), and only then are
 * the derivatives, the clipping by the precomputed row norm and the updates of the sum done, row by row
 * in batch order. Every number is computed by the same operations in the same order as the row-by-row
 * loop (dot, φ′, clip, axpy per row), so the sums are the same bits; only the order of the memory reads
 * changes. Allocation-free.
 */
final class GllBatchKernel {
    private GllBatchKernel() {
    }

    /**
     * out ← out + Σ ω_a·clip_C(φ′(⟨w, x_{idx[a]}⟩, y)·x_{idx[a]}) over the contributing slots of [from, to).
     *
     * @param dots scratch for a chunk's dots and row numbers (its length bounds the chunk: ≥ 2)
     * @param rowBuffer a gather buffer of whole rows (its length / d bounds the chunk), or null to read rows
     *     in place
     * @return the number of clipped contributions
     */
    static int addClipped(GeneralizedLinearLoss gll, DMatrixRMaj w, Dataset data, int[] idx, int from, int to,
            double[] weights, double clip, DMatrixRMaj out, double[] dots, double[] rowBuffer) {
        int d = data.dimension();
        int chunk = dots.length / 2;
        if (rowBuffer != null) {
            chunk = Math.min(chunk, rowBuffer.length / d);
        }
        if (chunk < 1) {
            throw new IllegalStateException("batch buffers too small for one row");
        }
        int rows = data.size();
        int clipped = 0;
        int a = from;
        while (a < to) {
            // phase 1: the chunk's contributing rows, their loads issued back to back
            int m = 0;
            for (; a < to && m < chunk; a++) {
                int i = idx[a];
                if ((weights != null && weights[a] == 0) || i >= rows) {
                    continue;
                }
                dots[chunk + m] = a;
                if (rowBuffer != null) {
                    data.copyRow(i, rowBuffer, m * d);
                } else {
                    dots[m] = data.dot(i, w);
                }
                m++;
            }
            if (rowBuffer != null) {
                for (int k = 0; k < m; k++) {
                    dots[k] = RowKernels.dot(rowBuffer, k * d, w.data, 0, d);
                }
            }
            // phase 2: the dependent arithmetic, row by row in batch order
            for (int k = 0; k < m; k++) {
                int s = (int) dots[chunk + k];
                int i = idx[s];
                double omega = weights == null ? 1.0 : weights[s];
                double g = gll.derivative(dots[k], data.label(i));
                double norm = Math.abs(g) * data.rowNorm(i);
                double scale = 1.0;
                if (norm > clip) {
                    scale = clip / norm;
                    clipped++;
                }
                double c = g * scale * omega;
                if (rowBuffer != null) {
                    RowKernels.axpy(c, rowBuffer, k * d, out.data, 0, d);
                } else {
                    data.addScaledRow(i, c, out);
                }
            }
        }
        return clipped;
    }
}
