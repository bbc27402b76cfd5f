package org.dpopt.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.loss.GllKernels;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.sgd.NoisySgd;
import org.ejml.data.DMatrixRMaj;

/**
 * {@code dpopt bench --suite perf-large}: the perf suite's DP-SGD epoch (Poisson, expected batch 256,
 * per-example clipping, logistic, z = 1, the RDP report) on a dataset too large to be built the usual
 * way, n = 10⁷ rows of d = 100 by default (8 GB of features), generated row by row straight into the
 * dataset's storage so that the process holds one copy. Reports the generation time, each epoch's, one
 * sequential full-gradient pass's and one default-threads pass's ({@code Problem.fullGradient}) wall time, and the process's peak heap and peak resident set
 * ({@link PeakMemory}). Rows: Gaussian features of standard deviation 1/√d projected into the unit ball,
 * labels ±1 from σ(⟨w*, x⟩) with a planted w* of norm 2 (the perf suite's law; drawn row by row, so
 * not its draws). n from {@code dpopt.perf.large.rows}, repetitions from {@code dpopt.perf.large.reps}
 * (default 3); {@code --quick}: n = 10⁴, one repetition.
 */
final class LargeEpochSuite implements BenchSuite {

    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception {
        int n = quick ? 10_000 : Math.toIntExact(Long.getLong("dpopt.perf.large.rows", 10_000_000L));
        int d = 100;
        int reps = quick ? 1 : Integer.getInteger("dpopt.perf.large.reps", 3);
        progress.printf("perf-large: generating n=%d, d=%d in place (%.2f GB of features)%n", n, d, 8.0 * n * d / 1e9);
        progress.flush();
        long t0 = System.nanoTime();
        Problem problem = Problem.of(generate(n, d, 1), Losses.logistic());
        double gen = (System.nanoTime() - t0) / 1e9;
        progress.printf("generated in %.1f s; %s%n", gen, PeakMemory.describe(PeakMemory.now()));
        NoisySgd dp = NoisySgd.builder().batchSize(256).epochs(1).noiseMultiplier(1.0).diagnostics(false)
                .accountant(new RdpAccountant()).build();
        PrivacyBudget budget = PrivacyBudget.of(1, 1e-6);
        DMatrixRMaj w = Synthetic.plantedVector(d, 1.0, Rngs.seeded(100));
        double[] epoch = new double[reps];
        double[] pass = new double[reps];
        double[] threaded = new double[reps];
        StringBuilder csv = new StringBuilder("rep,n,d,generate_s,dp_sgd_epoch_s,full_pass_s,full_pass_default_threads_s," + String.join(",",
                PeakMemory.KEYS) + "\n");
        for (int r = 0; r < reps; r++) {
            long seed = r;
            epoch[r] = BenchStats.seconds(() -> dp.optimize(problem, budget, Rngs.seeded(seed)));
            pass[r] = BenchStats.seconds(() -> GllKernels.addGradient(problem.data(), Losses.logistic(), w, n,
                    new DMatrixRMaj(d, 1), 1));
            threaded[r] = BenchStats.seconds(() -> problem.fullGradient(w, new DMatrixRMaj(d, 1)));
            Map<String, Long> mem = PeakMemory.now();
            progress.printf("rep %d: dp-sgd epoch %.2f s, full pass %.2f s (default threads %.2f s); %s%n", r, epoch[r],
                    pass[r], threaded[r], PeakMemory.describe(mem));
            progress.flush();
            csv.append(r).append(',').append(n).append(',').append(d).append(',').append(gen).append(',')
                    .append(epoch[r]).append(',').append(pass[r]).append(',').append(threaded[r]).append(',').append(PeakMemory.csv(mem)).append('\n');
        }
        Files.writeString(out.resolve("perf-large.csv"), csv.toString());
        double[] xs = BenchStats.indices(reps);
        Plots.line(out.resolve("perf-large.png"), "DP-SGD epoch (B = 256) in memory, n=" + n + ", d=" + d,
                "repetition", "seconds", List.of(new Plots.Series("DP-SGD epoch", xs, epoch),
                        new Plots.Series("full-gradient pass", xs, pass),
                        new Plots.Series("full pass, default threads", xs, threaded)), false, false);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("n", n);
        s.put("d", d);
        s.put("feature_bytes", 8L * n * d);
        s.put("generate_s", gen);
        s.put("dp_sgd_epoch_median_s", BenchStats.median(epoch));
        s.put("full_pass_median_s", BenchStats.median(pass));
        s.put("full_pass_default_threads_median_s", BenchStats.median(threaded));
        s.put("ratio_dp_sgd_epoch_to_full_pass", BenchStats.median(epoch) / BenchStats.median(pass));
        s.putAll(PeakMemory.now());
        return s;
    }

    /** n rows of the perf suite's law, drawn row by row into the dataset's own storage. */
    static Dataset generate(int n, int d, long seed) {
        UniformRandomProvider rng = Rngs.seeded(seed);
        return Synthetic.logisticInPlace(n, Synthetic.plantedVector(d, 2.0, rng), rng);
    }
}
