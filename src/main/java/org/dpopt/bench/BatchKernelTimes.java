package org.dpopt.bench;

import static org.dpopt.bench.BenchStats.middle;
import static org.dpopt.bench.BenchStats.min;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.RowKernels;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.noise.Rngs;
import org.dpopt.oracle.BatchBuffers;
import org.dpopt.oracle.ExactGradientOracle;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.PlannedPoissonSampler;
import org.dpopt.sampling.PoissonSampler;
import org.ejml.data.DMatrixRMaj;

/**
 * The clip-and-sum kernel alone over one epoch of Poisson batches (expected size 256, the batches drawn
 * before timing), three ways in the same JVM, alternating: the row-by-row loop (dot, φ′, clip, axpy per
 * row: what the oracle does without buffers), the rows copied into a contiguous buffer first, chunk by
 * chunk (the kernel of the previous round, kept here as a baseline), and the oracle's kernel in use
 * (labels and row norms read ahead, dots four rows at a time). All three give the same bits; only the
 * order of the memory reads and of independent work differs.
 */
final class BatchKernelTimes {
    private BatchKernelTimes() {
    }

    static Map<String, Object> run(Dataset data, int reps, PrintWriter progress) {
        int n = data.size();
        int d = data.dimension();
        BatchSampler sampler = PlannedPoissonSampler.of(PoissonSampler.epochs(256, 1, n));
        int steps = (int) Math.ceil(n / 256.0);
        int slots = sampler.maxBatchSlots(n);
        int[][] idx = new int[steps][];
        double[][] wts = new double[steps][];
        int[] k = new int[steps];
        drawBatches(sampler, n, idx, wts, k);
        GeneralizedLinearLoss gll = Losses.logistic();
        ExactGradientOracle oracle = ExactGradientOracle.of(gll, data.rowNormBound());
        BatchBuffers buffers = BatchBuffers.of(slots);
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        Arrays.fill(w.data, 0.05);
        DMatrixRMaj out = new DMatrixRMaj(d, 1);
        DMatrixRMaj scratch = new DMatrixRMaj(d, 1);
        double[] rowBuffer = new double[CHUNK * d];
        double[] dots = new double[CHUNK];
        double[][] t = new double[3][reps];
        double[][] sums = new double[3][];
        for (int r = 0; r < reps; r++) {
            for (int way = 0; way < 3; way++) {
                out.zero();
                long t0 = System.nanoTime();
                for (int s = 0; s < steps; s++) {
                    if (way == 0) {
                        rowByRow(gll, w, data, idx[s], k[s], wts[s], 1.0, out);
                    } else if (way == 1) {
                        copied(gll, w, data, idx[s], k[s], wts[s], 1.0, out, dots, rowBuffer);
                    } else {
                        oracle.addClippedBatch(w, data, idx[s], 0, k[s], wts[s], 1.0, out, scratch, buffers);
                    }
                }
                t[way][r] = (System.nanoTime() - t0) / 1e9;
                sums[way] = out.data.clone();
            }
            progress.printf("batch kernel rep %d: row by row %.3f s, copied %.3f s, in use %.3f s%n", r, t[0][r],
                    t[1][r], t[2][r]);
            progress.flush();
        }
        if (!Arrays.equals(sums[0], sums[1]) || !Arrays.equals(sums[0], sums[2])) {
            throw new IllegalStateException("the batch kernels' sums differ");
        }
        double cells = (double) n * d;
        Map<String, Object> s = new LinkedHashMap<>();
        String[] names = {"row_by_row", "copied", "in_use"};
        for (int way = 0; way < 3; way++) {
            s.put("batch_kernel_" + names[way] + "_ns_per_example_feature_median", middle(t[way]) * 1e9 / cells);
            s.put("batch_kernel_" + names[way] + "_ns_per_example_feature_min", min(t[way]) * 1e9 / cells);
        }
        s.put("batch_kernel_speedup_in_use_vs_row_by_row_median", middle(t[0]) / middle(t[2]));
        s.put("batch_kernel_speedup_in_use_vs_copied_median", middle(t[1]) / middle(t[2]));
        s.put("batch_kernel_speedup_in_use_vs_copied_of_minimums", min(t[1]) / min(t[2]));
        return s;
    }

    /** Draws the epoch's batches (seed 7) into idx, wts and k (the batch sizes), one step per entry. */
    private static void drawBatches(BatchSampler sampler, int n, int[][] idx, double[][] wts, int[] k) {
        BatchSampler.BatchIterator it = sampler.iterator(n, Rngs.seeded(7));
        int slots = sampler.maxBatchSlots(n);
        int[] ib = new int[slots];
        double[] wb = new double[slots];
        for (int t = 0; t < k.length; t++) {
            k[t] = it.next(ib, wb);
            idx[t] = Arrays.copyOf(ib, k[t]);
            wts[t] = Arrays.copyOf(wb, k[t]);
        }
    }

    /** Rows per chunk of the copying baseline (as in the previous round). */
    private static final int CHUNK = 64;

    /**
     * The previous round's kernel: each chunk's rows copied into a contiguous buffer, then the dots, then
     * φ′, clip and axpy row by row from the buffer.
     */
    private static void copied(GeneralizedLinearLoss gll, DMatrixRMaj w, Dataset data, int[] idx, int k,
            double[] wts, double clip, DMatrixRMaj out, double[] dots, double[] rowBuffer) {
        int d = data.dimension();
        int a = 0;
        while (a < k) {
            int from = a;
            int m = 0;
            for (; a < k && m < CHUNK; a++) {
                if (wts[a] != 0 && idx[a] < data.size()) {
                    data.copyRow(idx[a], rowBuffer, m++ * d);
                }
            }
            for (int r = 0; r < m; r++) {
                dots[r] = RowKernels.dot(rowBuffer, r * d, w.data, 0, d);
            }
            for (int r = 0, b = from; r < m; b++) {
                if (wts[b] == 0 || idx[b] >= data.size()) {
                    continue;
                }
                int i = idx[b];
                double g = gll.derivative(dots[r], data.label(i));
                double norm = Math.abs(g) * data.rowNorm(i);
                double scale = norm > clip ? clip / norm : 1.0;
                RowKernels.axpy(g * scale * wts[b], rowBuffer, r * d, out.data, 0, d);
                r++;
            }
        }
    }

    /** The baseline: dot, φ′, clip by |φ′|·‖x‖, axpy, one row at a time. */
    private static void rowByRow(GeneralizedLinearLoss gll, DMatrixRMaj w, Dataset data, int[] idx, int k,
            double[] wts, double clip, DMatrixRMaj out) {
        for (int a = 0; a < k; a++) {
            int i = idx[a];
            if (wts[a] == 0 || i >= data.size()) {
                continue;
            }
            double g = gll.derivative(data.dot(i, w), data.label(i));
            double norm = Math.abs(g) * data.rowNorm(i);
            double scale = norm > clip ? clip / norm : 1.0;
            data.addScaledRow(i, g * scale * wts[a], out);
        }
    }
}
