package org.dpopt.bench;

import static org.dpopt.bench.BenchStats.median;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.noise.Rngs;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.Problem;
import org.dpopt.optim.smoothing.PhasedSgd;
import org.dpopt.sampling.RecordOrder;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.oracle.GllBisectionProx;
import org.ejml.data.DMatrixRMaj;

/**
 * {@code dpopt bench --suite smoothed-gradient}: the summed per-example gradient of the Moreau-smoothed
 * hinge through {@link GllBisectionProx} (α = 1e−6, K = 21) against the exact hinge subgradient on the same
 * data and w (d = 100, margins ~ N(0, 1)), alternating the two passes in one JVM so that machine load
 * hits both alike; reports the median of the per-repetition time ratios. Two data sizes (in cache and
 * out of cache) and two β (1000: Phased-SGD's smoothing near n = 10⁶; 10: ~8 % of prox points need the
 * full bisection). The JMH benchmark {@code SmoothedGradientBenchmark} measures the same pair.
 */
final class SmoothedGradientSuite implements BenchSuite {

    private static double exact(Dataset data, DMatrixRMaj w, DMatrixRMaj out, GeneralizedLinearLoss f) {
        java.util.Arrays.fill(out.data, 0);
        for (int i = 0; i < data.size(); i++) {
            data.addScaledRow(i, f.derivative(data.dot(i, w), data.label(i)), out);
        }
        return out.data[0];
    }

    /** Per-repetition times (ms a pass) of the exact and the bisection gradient, their ratios, and a checksum. */
    private record Timing(double[] exact, double[] bisection, double[] ratio, double sink) {
    }

    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception {
        int d = 100;
        int reps = quick ? 7 : 31;
        int[] sizes = quick ? new int[] {2000, 20000} : new int[] {2000, 200000};
        double[] betas = {1000, 10};
        UniformRandomProvider rng = Rngs.seeded(1);
        DMatrixRMaj wStar = Synthetic.plantedVector(d, 1, rng);
        DMatrixRMaj w = wStar.copy();
        for (int j = 0; j < d; j++) {
            w.data[j] *= 10;
        }
        StringBuilder csv = new StringBuilder("n,beta,median_exact_ms,median_bisection_ms,median_ratio,"
                + "mean_scalar_calls_per_gradient\n");
        Map<String, Object> summary = new LinkedHashMap<>();
        List<Plots.Series> series = new ArrayList<>();
        double sink = 0;
        for (int n : sizes) {
            Dataset data = Synthetic.linearlySeparable(n, wStar, 0.1, rng).data();
            for (double beta : betas) {
                GllBisectionProx prox = GllBisectionProx.of(Losses.hinge(), beta, 1e-6);
                GllBisectionProx.Oracle calls = prox.oracle(data.rowNormBound());
                for (int i = 0; i < n; i++) {
                    calls.derivative(data.dot(i, w), data.label(i));
                }
                Timing t = time(data, w, prox, reps);
                sink += t.sink();
                double mr = median(t.ratio());
                csv.append(String.format(Locale.ROOT, "%d,%.0f,%.4f,%.4f,%.3f,%.3f%n", n, beta, median(t.exact()),
                        median(t.bisection()), mr, (double) calls.subgradientCalls() / n));
                summary.put("ratio_n" + n + "_beta" + (int) beta, mr);
                progress.printf(Locale.ROOT, "n=%d beta=%.0f: exact %.3f ms, bisection %.3f ms, ratio %.3f%n", n, beta,
                        median(t.exact()), median(t.bisection()), mr);
                progress.flush();
                series.add(new Plots.Series("n=" + n + ", beta=" + (int) beta, BenchStats.indices(reps), t.ratio()));
            }
        }
        Files.writeString(out.resolve("smoothed-gradient.csv"), csv.toString());
        sink += phasedRun(quick ? 100_000 : 1_000_000, d, wStar, rng, summary, progress, out);
        Plots.line(out.resolve("smoothed-gradient.png"), "bisection-smoothed / exact hinge gradient time, d=100",
                "repetition", "time ratio", series, false, false);
        summary.put("checksum", sink == 0 ? 0 : 1);
        return summary;
    }

    /** reps alternating repetitions (after 3 warm-up ones) of the exact and the bisection gradient passes. */
    private static Timing time(Dataset data, DMatrixRMaj w, GllBisectionProx prox, int reps) {
        GeneralizedLinearLoss hinge = Losses.hinge();
        DMatrixRMaj acc = new DMatrixRMaj(w.numRows, 1);
        int passes = Math.max(1, 2_000_000 / data.size());
        double[] te = new double[reps];
        double[] tb = new double[reps];
        double[] ratio = new double[reps];
        double sink = 0;
        for (int r = -3; r < reps; r++) { // 3 warm-up repetitions
            long t0 = System.nanoTime();
            for (int p = 0; p < passes; p++) {
                sink += exact(data, w, acc, hinge);
            }
            long t1 = System.nanoTime();
            for (int p = 0; p < passes; p++) {
                sink += exact(data, w, acc, prox);
            }
            long t2 = System.nanoTime();
            if (r >= 0) {
                te[r] = (t1 - t0) / 1e6 / passes;
                tb[r] = (t2 - t1) / 1e6 / passes;
                ratio[r] = tb[r] / te[r];
            }
        }
        return new Timing(te, tb, ratio, sink);
    }

    /**
     * One Phased-SGD run (hinge, bisection, unit ball; shuffled and in given order) against one sequential
     * exact-gradient pass over the same n×d data, alternating, 3 repetitions (without diagnostics, so
     * without the extra train-loss pass).
     */
    private static double phasedRun(int n, int d, DMatrixRMaj wStar, UniformRandomProvider rng,
            Map<String, Object> summary, PrintWriter progress, Path out) throws java.io.IOException {
        Dataset data = Synthetic.linearlySeparable(n, wStar, 0.1, rng).data();
        Problem p = Problem.of(data, Losses.hinge(), ConvexSets.l2Ball(1));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        PhasedSgd shuffled = PhasedSgd.builder().order(RecordOrder.SHUFFLE).build();
        PhasedSgd blocks = PhasedSgd.defaults();
        PhasedSgd ordered = PhasedSgd.builder().order(RecordOrder.GIVEN).build();
        DMatrixRMaj w = wStar.copy();
        DMatrixRMaj acc = new DMatrixRMaj(d, 1);
        double sink = 0;
        int reps = 3;
        double[] tPass = new double[reps];
        double[] tShuf = new double[reps];
        double[] tOrd = new double[reps];
        double[] tBlk = new double[reps];
        for (int r = -1; r < reps; r++) {
            long t0 = System.nanoTime();
            sink += exact(data, w, acc, Losses.hinge());
            long t1 = System.nanoTime();
            sink += shuffled.optimize(p, b, Rngs.seeded(r + 10)).solution().data[0];
            long t2 = System.nanoTime();
            sink += ordered.optimize(p, b, Rngs.seeded(r + 10)).solution().data[0];
            long t3 = System.nanoTime();
            sink += blocks.optimize(p, b, Rngs.seeded(r + 10)).solution().data[0];
            long t4 = System.nanoTime();
            if (r >= 0) {
                tBlk[r] = (t4 - t3) / 1e9;
                tPass[r] = (t1 - t0) / 1e9;
                tShuf[r] = (t2 - t1) / 1e9;
                tOrd[r] = (t3 - t2) / 1e9;
            }
        }
        String line = String.format(Locale.ROOT, "%d,%d,%.4f,%.4f,%.4f,%.4f,%.2f,%.2f,%.2f%n", n, d, median(tPass),
                median(tShuf), median(tBlk), median(tOrd), median(tShuf) / median(tPass), median(tBlk) / median(tPass),
                median(tOrd) / median(tPass));
        Files.writeString(out.resolve("phased-sgd-run.csv"), "n,d,exact_pass_s,phased_shuffled_s,phased_blocks_s,"
                + "phased_in_order_s,shuffled_over_pass,blocks_over_pass,in_order_over_pass\n" + line);
        progress.print("phased-sgd run vs one pass: " + line);
        progress.flush();
        summary.put("phased_run_over_pass_shuffled", median(tShuf) / median(tPass));
        summary.put("phased_run_over_pass_blocks", median(tBlk) / median(tPass));
        summary.put("phased_run_over_pass_in_order", median(tOrd) / median(tPass));
        return sink;
    }
}
