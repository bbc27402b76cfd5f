package org.dpopt.oracle;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.RowKernels;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.ejml.data.DMatrixRMaj;

/**
 * The clip-and-sum kernel of a generalized linear loss, ordered for memory: the batch is taken in chunks;
 * for each chunk every row's loads are issued before any dependent arithmetic (the rows are copied into a
 * contiguous buffer, independent loads the processor overlaps), and only then are
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
     * @param rowBuffer a gather buffer of whole rows (its length / d bounds the chunk)
     * @return the number of clipped contributions
     */
    static int addClipped(GeneralizedLinearLoss gll, DMatrixRMaj w, Dataset data, int[] idx, int from, int to,
            double[] weights, double clip, DMatrixRMaj out, double[] dots, double[] rowBuffer) {
        int d = data.dimension();
        int chunk = Math.min(dots.length / 2, rowBuffer.length / d);
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
                data.copyRow(i, rowBuffer, m * d);
                m++;
            }
            for (int k = 0; k < m; k++) {
                dots[k] = RowKernels.dot(rowBuffer, k * d, w.data, 0, d);
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
                RowKernels.axpy(g * scale * omega, rowBuffer, k * d, out.data, 0, d);
            }
        }
        return clipped;
    }
}
