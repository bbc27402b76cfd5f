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
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception {
        int n = EpochPair.rows(quick);
        int reps = EpochPair.repetitions(quick);
        Problem problem = BenchStats.logisticProblem(n, EpochPair.DIMENSION, progress);
        NoisySgd dp = EpochPair.dpSgd();
        NonPrivateSgd plain = EpochPair.nonPrivate();
        PrivacyBudget budget = EpochPair.BUDGET;
        double[] tDp = new double[reps];
        double[] tPlain = new double[reps];
        for (int r = 0; r < reps; r++) {
            int seed = r;
            tDp[r] = BenchStats.seconds(() -> dp.optimize(problem, budget, Rngs.seeded(seed)));
            tPlain[r] = BenchStats.seconds(() -> plain.optimize(problem, budget, Rngs.seeded(seed)));
            progress.printf("rep %d: dp-sgd %.3f s, non-private %.3f s%n", r, tDp[r], tPlain[r]);
            progress.flush();
        }
        double mDp = BenchStats.median(tDp);
        double mPlain = BenchStats.median(tPlain);
        StringBuilder csv = new StringBuilder("rep,dp_sgd_seconds,non_private_seconds\n");
        for (int r = 0; r < reps; r++) {
            csv.append(r).append(',').append(tDp[r]).append(',').append(tPlain[r]).append('\n');
        }
        Files.writeString(out.resolve("dpsgd-epoch.csv"), csv.toString());
        double[] xs = BenchStats.indices(reps);
        Plots.line(out.resolve("dpsgd-epoch.png"), "One epoch, n=" + n + ", d=" + EpochPair.DIMENSION,
                "repetition", "seconds", List.of(new Plots.Series("DP-SGD", xs, tDp),
                        new Plots.Series("non-private SGD", xs, tPlain)), false, false);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("n", n);
        s.put("d", EpochPair.DIMENSION);
        s.put("dp_sgd_epoch_median_s", mDp);
        s.put("non_private_epoch_median_s", mPlain);
        s.put("ratio", mDp / mPlain);
        return s;
    }
}
