package org.dpopt.bench;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.data.Dataset;
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
 * before timing), two ways in the same JVM, alternating: the row-by-row loop (dot, φ′, clip, axpy per
 * row: the baseline, and what the oracle does without buffers) and rows gathered into buffers first (what
 * an in-memory DP-SGD run does). Both give the same bits; only the order of memory reads differs.
 */
final class BatchKernelTimes {
    private BatchKernelTimes() {
    }

    static Map<String, Object> run(Dataset data, int reps, PrintWriter progress) {
        int n = data.size();
        int d = data.dimension();
        BatchSampler sampler = PlannedPoissonSampler.of(PoissonSampler.epochs(256, 1, n));
        BatchSampler.BatchIterator it = sampler.iterator(n, Rngs.seeded(7));
        int steps = (int) Math.ceil(n / 256.0);
        int slots = sampler.maxBatchSlots(n);
        int[][] idx = new int[steps][];
        double[][] wts = new double[steps][];
        int[] k = new int[steps];
        int[] ib = new int[slots];
        double[] wb = new double[slots];
        for (int t = 0; t < steps; t++) {
            k[t] = it.next(ib, wb);
            idx[t] = Arrays.copyOf(ib, k[t]);
            wts[t] = Arrays.copyOf(wb, k[t]);
        }
        GeneralizedLinearLoss gll = Losses.logistic();
        ExactGradientOracle oracle = ExactGradientOracle.of(gll, data.rowNormBound());
        BatchBuffers buffers = BatchBuffers.of(d, slots);
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        Arrays.fill(w.data, 0.05);
        DMatrixRMaj out = new DMatrixRMaj(d, 1);
        DMatrixRMaj scratch = new DMatrixRMaj(d, 1);
        double[][] t = new double[2][reps];
        for (int r = 0; r < reps; r++) {
            for (int way = 0; way < 2; way++) {
                out.zero();
                long t0 = System.nanoTime();
                for (int s = 0; s < steps; s++) {
                    if (way == 0) {
                        rowByRow(gll, w, data, idx[s], k[s], wts[s], 1.0, out);
                    } else {
                        oracle.addClippedBatch(w, data, idx[s], 0, k[s], wts[s], 1.0, out, scratch, buffers);
                    }
                }
                t[way][r] = (System.nanoTime() - t0) / 1e9;
            }
            progress.printf("batch kernel rep %d: row by row %.3f s, gathered %.3f s%n", r, t[0][r], t[1][r]);
            progress.flush();
        }
        double cells = (double) n * d;
        Map<String, Object> s = new LinkedHashMap<>();
        String[] names = {"row_by_row", "gathered"};
        for (int way = 0; way < 2; way++) {
            double[] c = t[way].clone();
            Arrays.sort(c);
            s.put("batch_kernel_" + names[way] + "_ns_per_example_feature_median", c[c.length / 2] * 1e9 / cells);
            s.put("batch_kernel_" + names[way] + "_ns_per_example_feature_min", c[0] * 1e9 / cells);
        }
        s.put("batch_kernel_speedup_gathered_vs_row_by_row_median", median(t[0]) / median(t[1]));
        return s;
    }

    private static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c[c.length / 2];
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
