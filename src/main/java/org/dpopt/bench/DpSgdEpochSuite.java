package org.dpopt.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.sgd.NonPrivateSgd;
import org.dpopt.optim.PrivacyBudget;

/**
 * {@code dpopt bench --suite dpsgd-epoch}: one DP-SGD epoch (Poisson, expected batch 256,
 * per-example clipping, logistic) against one non-private mini-batch SGD epoch on the same data, in
 * the same JVM, alternating, several repetitions; reports the ratio of medians. The JMH benchmark
 * {@code DpSgdEpochBenchmark} (profile {@code jmh}) measures the same pair more carefully.
 */
final class DpSgdEpochSuite implements BenchSuite {

    @Override
    public String name() {
        return "dpsgd-epoch";
    }

    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception {
        int n = quick ? 50_000 : 1_000_000;
        int d = 100;
        int reps = quick ? 3 : 7;
        Problem problem = BenchStats.logisticProblem(n, d, progress);
        NoisySgd dp = NoisySgd.builder().batchSize(256).epochs(1).noiseMultiplier(1.0).diagnostics(false)
                .accountant(new org.dpopt.accounting.RdpAccountant()).build();
        NonPrivateSgd plain = NonPrivateSgd.builder().batchSize(256).epochs(1).build();
        PrivacyBudget budget = PrivacyBudget.of(1, 1e-6);
        double[] tDp = new double[reps];
        double[] tPlain = new double[reps];
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            dp.optimize(problem, budget, Rngs.seeded(r));
            tDp[r] = (System.nanoTime() - t0) / 1e9;
            t0 = System.nanoTime();
            plain.optimize(problem, budget, Rngs.seeded(r));
            tPlain[r] = (System.nanoTime() - t0) / 1e9;
            progress.printf("rep %d: dp-sgd %.3f s, non-private %.3f s%n", r, tDp[r], tPlain[r]);
            progress.flush();
        }
        double mDp = median(tDp);
        double mPlain = median(tPlain);
        StringBuilder csv = new StringBuilder("rep,dp_sgd_seconds,non_private_seconds\n");
        for (int r = 0; r < reps; r++) {
            csv.append(r).append(',').append(tDp[r]).append(',').append(tPlain[r]).append('\n');
        }
        Files.writeString(out.resolve("dpsgd-epoch.csv"), csv.toString());
        double[] xs = new double[reps];
        for (int r = 0; r < reps; r++) {
            xs[r] = r;
        }
        Plots.line(out.resolve("dpsgd-epoch.png"), "One epoch, n=" + n + ", d=" + d + "",
                "repetition", "seconds", List.of(new Plots.Series("DP-SGD", xs, tDp),
                        new Plots.Series("non-private SGD", xs, tPlain)), false, false);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("n", n);
        s.put("d", d);
        s.put("dp_sgd_epoch_median_s", mDp);
        s.put("non_private_epoch_median_s", mPlain);
        s.put("ratio", mDp / mPlain);
        return s;
    }

    private static double median(double[] v) {
        double[] c = v.clone();
        java.util.Arrays.sort(c);
        return c[c.length / 2];
    }
}
