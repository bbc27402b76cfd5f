package org.dpopt.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleFunction;
import org.dpopt.accounting.AblqAccountant;
import org.dpopt.accounting.Bound;
import org.dpopt.accounting.AblqStepEvent;
import org.dpopt.accounting.AblqStepEvent.BatchOrder;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.accounting.TruncatedPoissonEvent;
import org.dpopt.accounting.TruncationTerm;
import org.dpopt.data.Dataset;
import org.dpopt.data.DatasetIO;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.eval.Metrics;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.Samplers;

/**
 * {@code dpopt bench --suite samplers}: the "shuffling vs Poisson" study of Chua et al. (NeurIPS
 * 2024, arXiv:2411.04205). (a) σ_𝔅(ε = 5, δ = 2.7e-8) against steps per epoch S for every sampler,
 * E ∈ {1, 5}: deterministic (exact; also the valid upper bound for both shuffles), persistent and
 * dynamic shuffle (optimistic lower bounds), Poisson (PLD upper and optimistic lower), truncated
 * Poisson (upper, with B chosen so the truncation term is at most δ/10; n = 3.67e7 as in Criteo).
 * (b) DP-SGD (logistic regression) test accuracy on Adult for each sampler at its own σ, ε ∈ {1, 2,
 * 5}, δ = 1e-5, b = 176 (divides n = 26048), E = 5. Adult is read at run time from the directory in
 * the system property {@code dpopt.data}, the environment variable {@code DPOPT_DATA_DIR}, or
 * {@code $DPOPT_SHARED/data}, default {@code ../shared/data}; part (b) is skipped with a note when the files are absent.
 */
final class SamplersSuite implements BenchSuite {

    private static final double EPS = 5;
    private static final double DELTA = 2.7e-8;
    private static final int CRITEO_N = 36_700_000;


    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception {
        Map<String, Object> summary = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        sigmaStudy(out, quick, progress, summary);
        summary.put("sigma_study_seconds", (System.nanoTime() - t0) / 1e9);
        long t1 = System.nanoTime();
        accuracyStudy(out, quick, progress, summary);
        summary.put("accuracy_study_seconds", (System.nanoTime() - t1) / 1e9);
        return summary;
    }

    private static final String[] SIGMA_SERIES = {"deterministic (exact; = shuffle upper)", "shuffle-persistent (lower)",
        "shuffle-dynamic (lower)", "poisson (upper)", "poisson (lower)", "truncated-poisson (upper)"};

    private void sigmaStudy(Path out, boolean quick, PrintWriter progress, Map<String, Object> summary)
            throws Exception {
        AblqAccountant acc = new AblqAccountant();
        long[] grid = quick ? new long[] {10, 100, 1000} : new long[] {10, 32, 100, 316, 1000, 3162, 10000};
        double tol = quick ? 1e-3 : 1e-5;
        StringBuilder csv = new StringBuilder("epochs,steps_per_epoch,batch_size_at_n_3.67e7,max_batch_size,"
                + "sigma_deterministic,sigma_persistent_lower,sigma_dynamic_lower,sigma_poisson_upper,"
                + "sigma_poisson_lower,sigma_truncated_poisson_upper\n");
        for (int e : new int[] {1, 5}) {
            double[][] ys = new double[SIGMA_SERIES.length][grid.length];
            double[] xs = new double[grid.length];
            for (int k = 0; k < grid.length; k++) {
                long s = grid[k];
                long t = s * e;
                double q = 1.0 / s;
                xs[k] = s;
                ys[0][k] = acc.noiseMultiplier(z -> fixed(BatchOrder.DETERMINISTIC, z, s, t), EPS, DELTA, Bound.UPPER, tol);
                ys[1][k] = acc.noiseMultiplier(z -> fixed(BatchOrder.PERSISTENT_SHUFFLE, z, s, t), EPS, DELTA, Bound.LOWER, tol);
                ys[2][k] = acc.noiseMultiplier(z -> fixed(BatchOrder.DYNAMIC_SHUFFLE, z, s, t), EPS, DELTA, Bound.LOWER, tol);
                DoubleFunction<DpEvent> poisson = z -> new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(z)), t);
                ys[3][k] = acc.noiseMultiplier(poisson, EPS, DELTA, Bound.UPPER, tol);
                ys[4][k] = acc.noiseMultiplier(poisson, EPS, DELTA, Bound.LOWER, tol);
                int bigB = TruncationTerm.maxBatchFor(CRITEO_N, q, t, EPS, DELTA, 0.1);
                ys[5][k] = acc.noiseMultiplier(z -> new SelfComposedEvent(
                        new TruncatedPoissonEvent(q, CRITEO_N, bigB, new GaussianEvent(z)), t), EPS, DELTA, Bound.UPPER, tol);
                csv.append(e).append(',').append(s).append(',').append(CRITEO_N / s).append(',').append(bigB);
                for (double[] y : ys) {
                    csv.append(',').append(String.format("%.6f", y[k]));
                }
                csv.append('\n');
                progress.printf("E=%d S=%d: det %.4f, persistent>= %.4f, dynamic>= %.4f, poisson %.4f [>= %.4f], "
                        + "truncated %.4f (B=%d)%n", e, s, ys[0][k], ys[1][k], ys[2][k], ys[3][k], ys[4][k], ys[5][k], bigB);
                progress.flush();
            }
            List<Plots.Series> series = new ArrayList<>();
            for (int j = 0; j < SIGMA_SERIES.length; j++) {
                series.add(new Plots.Series(SIGMA_SERIES[j], xs, ys[j]));
            }
            Plots.line(out.resolve("samplers-sigma-E" + e + ".png"),
                    "sigma(eps=5, delta=2.7e-8), E=" + e + "; shuffle = optimistic",
                    "steps per epoch S = n/b", "noise multiplier sigma", series, true, false);
            int last = grid.length - 1;
            summary.put("E" + e + "_S" + grid[last] + "_sigma_deterministic", ys[0][last]);
            summary.put("E" + e + "_S" + grid[last] + "_sigma_dynamic_lower", ys[2][last]);
            summary.put("E" + e + "_S" + grid[last] + "_sigma_persistent_lower", ys[1][last]);
            summary.put("E" + e + "_S" + grid[last] + "_sigma_poisson_upper", ys[3][last]);
            summary.put("E" + e + "_S" + grid[last] + "_sigma_truncated_upper", ys[5][last]);
        }
        Files.writeString(out.resolve("samplers-sigma.csv"), csv.toString());
    }

    private static DpEvent fixed(BatchOrder o, double z, long s, long t) {
        return new SelfComposedEvent(new AblqStepEvent(o, z, s), t);
    }

    /** Data directory: -Ddpopt.data, else $DPOPT_DATA_DIR, else $DPOPT_SHARED/data, else ../shared/data. */
    static Path dataDir() {
        String p = System.getProperty("dpopt.data");
        if (p == null) {
            p = System.getenv("DPOPT_DATA_DIR");
        }
        if (p == null && System.getenv("DPOPT_SHARED") != null) {
            return Path.of(System.getenv("DPOPT_SHARED"), "data");
        }
        return Path.of(p != null ? p : "../shared/data");
    }

    private record Config(String label, String sampler, Bound bound) {
    }

    private static final Config[] CONFIGS = {
        new Config("deterministic", "deterministic", Bound.UPPER),
        new Config("shuffle-persistent (optimistic sigma)", "shuffle-persistent", Bound.LOWER),
        new Config("shuffle-dynamic (optimistic sigma)", "shuffle-dynamic", Bound.LOWER),
        new Config("shuffle-dynamic (valid sigma)", "shuffle-dynamic", Bound.UPPER),
        new Config("poisson", "poisson", Bound.UPPER),
        new Config("truncated-poisson", "truncated-poisson", Bound.UPPER)};
    private static final int BATCH = 176;
    private static final int EPOCHS = 5;
    private static final double ADULT_DELTA = 1e-5;

    /** The accuracy study's fixed inputs: the (trimmed) training problem, the test rows, the accountants. */
    private record Study(Problem problem, int n, Dataset test, int seeds, AblqAccountant zeroOut,
            AblqAccountant addRemove) {
        AblqAccountant accountantFor(BatchSampler s) {
            return s.relation() == NeighboringRelation.ZERO_OUT ? zeroOut : addRemove;
        }
    }

    /** One sampler at one ε: its σ, the sampler's step count, B (truncated Poisson, else 0) and the accuracy. */
    private record Measured(double sigma, long steps, int maxBatch, double mean, double sd) {
    }

    private void accuracyStudy(Path out, boolean quick, PrintWriter progress, Map<String, Object> summary)
            throws Exception {
        Path dir = dataDir();
        Path train = dir.resolve("adult_train.csv");
        Path test = dir.resolve("adult_test.csv");
        if (!Files.isRegularFile(train) || !Files.isRegularFile(test)) {
            progress.println("Adult not found under " + dir.toAbsolutePath() + " (set -Ddpopt.data or DPOPT_DATA_DIR); "
                    + "skipping the accuracy study");
            summary.put("accuracy_study", "skipped: Adult not found under " + dir.toAbsolutePath());
            return;
        }
        Dataset tr = multipleOfBatch(DatasetIO.readCsv(train));
        Study study = new Study(Problem.of(tr, Losses.logistic()), tr.size(), DatasetIO.readCsv(test), quick ? 1 : 5,
                new AblqAccountant(), new AblqAccountant(NeighboringRelation.ADD_OR_REMOVE_ONE, new RdpAccountant(), true));
        double[] epsilons = quick ? new double[] {1, 5} : new double[] {1, 2, 5};
        StringBuilder csv = new StringBuilder("sampler,bound,epsilon,delta,batch_size,epochs,steps,max_batch_size,sigma,"
                + "accuracy_mean,accuracy_sd,seeds\n");
        double[][] accs = new double[CONFIGS.length][epsilons.length];
        for (int c = 0; c < CONFIGS.length; c++) {
            Config cfg = CONFIGS[c];
            for (int k = 0; k < epsilons.length; k++) {
                double eps = epsilons[k];
                Measured m = measure(cfg, eps, study);
                accs[c][k] = m.mean();
                csv.append(String.format("%s,%s,%s,%s,%d,%d,%d,%d,%.6f,%.5f,%.5f,%d%n", cfg.label(),
                        cfg.bound().key(), eps, ADULT_DELTA, BATCH, EPOCHS, m.steps(), m.maxBatch(), m.sigma(), m.mean(),
                        m.sd(), study.seeds()));
                progress.printf("%s eps=%s: sigma=%.4f accuracy %.4f +- %.4f%n", cfg.label(), eps, m.sigma(), m.mean(),
                        m.sd());
                progress.flush();
                summary.put("adult_acc_" + cfg.sampler() + "_" + cfg.bound().key() + "_eps" + eps, m.mean());
            }
        }
        Files.writeString(out.resolve("samplers-census-income-accuracy.csv"), csv.toString());
        plotAccuracy(out, epsilons, accs);
    }

    /** Fixed-size samplers need b | n: keeps the first ⌊n/b⌋·b rows (a rule that ignores the data). */
    private static Dataset multipleOfBatch(Dataset tr) {
        int n = tr.size();
        if (n % BATCH == 0) {
            return tr;
        }
        int[] rows = new int[n / BATCH * BATCH];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = i;
        }
        return tr.subset(rows);
    }

    /** σ for the sampler at (ε, δ) and its bound, then DP-SGD's test accuracy over the seeds. */
    private static Measured measure(Config cfg, double eps, Study study) {
        int n = study.n();
        Samplers.Recipe recipe = Samplers.byName(cfg.sampler());
        int bigB = 0;
        if (cfg.sampler().equals("truncated-poisson")) {
            long t = (long) Math.ceil((double) EPOCHS * n / BATCH);
            bigB = TruncationTerm.maxBatchFor(n, (double) BATCH / n, t, eps, ADULT_DELTA, 0.1);
            recipe = Samplers.truncatedPoisson(bigB);
        }
        BatchSampler s = recipe.create(n, BATCH, EPOCHS);
        AblqAccountant acc = study.accountantFor(s);
        double sigma = acc.noiseMultiplier(z -> s.privacyEvent(n, z), eps, ADULT_DELTA, cfg.bound(), 1e-4);
        int seeds = study.seeds();
        double sum = 0;
        double sq = 0;
        for (int seed = 0; seed < seeds; seed++) {
            NoisySgd sgd = NoisySgd.builder().sampler(recipe).batchSize(BATCH).epochs(EPOCHS).noiseMultiplier(sigma)
                    .accountant(acc).learningRate(1.0).build();
            double a = Metrics.accuracy(sgd.optimize(study.problem(), PrivacyBudget.of(eps, ADULT_DELTA),
                    Rngs.seeded(100 + seed)).solution(), study.test());
            sum += a;
            sq += a * a;
        }
        double mean = sum / seeds;
        double sd = seeds > 1 ? Math.sqrt(Math.max(0, (sq - seeds * mean * mean) / (seeds - 1))) : 0;
        return new Measured(sigma, s.steps(n), bigB, mean, sd);
    }

    private static void plotAccuracy(Path out, double[] epsilons, double[][] accs) throws java.io.IOException {
        List<Plots.Series> series = new ArrayList<>();
        for (int c = 0; c < CONFIGS.length; c++) {
            series.add(new Plots.Series(CONFIGS[c].label(), epsilons, accs[c]));
        }
        Plots.line(out.resolve("samplers-census-income-accuracy.png"), "Adult, DP-SGD b=" + BATCH + ", E=" + EPOCHS
                + ", delta=1e-5", "epsilon", "test accuracy", series, false, false);
    }
}
