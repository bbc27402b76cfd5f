package org.dpopt.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code dpopt bench --suite real-data}: what a user of {@code dpopt train} gets with the defaults of every
 * private algorithm on the real datasets of the shared data folder (fixed train/test files): the mean and
 * standard deviation of the test accuracy over research-mode seeds at ε ∈ {0.5, 1, 2, 5}, δ = 1e-5, next to
 * the peers' numbers of {@code refdata/peers-accuracy.csv} (diffprivlib 0.6.6 at its best regularization,
 * Opacus 1.4.0) and the majority-class rate of the test labels.
 *
 * <p>Each run is the command {@code dpopt train --algorithm A --data N_train.csv --test-data N_test.csv
 * --epsilon E --delta 1e-5 --seed S}, executed in this JVM by the command line's own code, with nothing
 * else but {@code --loss hinge} for phased-sgd and prox-sgd; so the defaults measured are exactly the
 * command's. The data folder is {@code -Ddpopt.shared.data=DIR}, else {@code $DPOPT_SHARED/data}, else
 * {@code ../shared/data}; Adult is read from there and never copied into the project. The datasets can be
 * narrowed with {@code -Ddpopt.real-data.sets=a,b}. {@code --quick}: ε = 1, two seeds, breast_cancer unless
 * the sets are given.
 */
final class RealDataSuite implements BenchSuite {

    /** The datasets of the full run, in report order. */
    static final List<String> DATASETS = List.of("breast_cancer", "heart_scale", "diabetes", "adult");

    /** The target ε of the full run (δ = 1e-5). */
    static final double[] EPSILONS = {0.5, 1, 2, 5};

    /** δ of every run. */
    static final double DELTA = 1e-5;

    /** The first research-mode seed (the seeds are 101, 102, …). */
    static final long FIRST_SEED = 101;

    /** The extra flags of the benchmark protocol: the hinge loss for the two algorithms built around it. */
    static List<String> protocolFlags(String algorithm) {
        return switch (algorithm) {
            case "phased-sgd", "prox-sgd" -> List.of("--loss", "hinge");
            default -> List.of();
        };
    }

    /** What one run of the suite measures. */
    record Plan(Path data, Path peers, List<String> datasets, double[] epsilons, int seeds) {
    }

    private final Plan fixed;

    RealDataSuite() {
        this(null);
    }

    /** A suite with a fixed plan (tests), or null for the plan of {@code --quick} / the full run. */
    RealDataSuite(Plan fixed) {
        this.fixed = fixed;
    }


    /** The shared data folder: {@code -Ddpopt.shared.data}, else {@code $DPOPT_SHARED/data}, else ../shared/data. */
    static Path dataDir() {
        String prop = System.getProperty("dpopt.shared.data");
        if (prop != null) {
            return Path.of(prop);
        }
        String env = System.getenv("DPOPT_SHARED");
        return env != null ? Path.of(env, "data") : Path.of("..", "shared", "data");
    }

    /** The plan of {@code --quick} or of the full run. */
    static Plan defaultPlan(boolean quick) {
        Path data = dataDir();
        Path peers = data.toAbsolutePath().getParent().resolve("refdata").resolve("peers-accuracy.csv");
        String sets = System.getProperty("dpopt.real-data.sets");
        List<String> names = sets != null ? Arrays.stream(sets.split(",")).map(String::strip).toList()
                : quick ? List.of("breast_cancer") : DATASETS;
        return quick ? new Plan(data, peers, names, new double[] {1}, 2) : new Plan(data, peers, names, EPSILONS, 10);
    }

    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) {
        throw new IllegalStateException("the real-data suite must be run by dpopt bench (it calls dpopt train) "
                + "but was run without a way to call it");
    }

    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress, TrainRunner train)
            throws Exception {
        Plan plan = fixed != null ? fixed : defaultPlan(quick);
        if (!Files.isDirectory(plan.data())) {
            throw new IllegalArgumentException("shared data folder must exist (set -Ddpopt.shared.data or "
                    + "DPOPT_SHARED) but was " + plan.data());
        }
        RealDataPeers peers = RealDataPeers.read(plan.peers());
        List<String> algorithms = train.classifiers();
        List<String> present = new ArrayList<>();
        for (String name : plan.datasets()) {
            if (Files.exists(trainFile(plan, name)) && Files.exists(testFile(plan, name))) {
                present.add(name);
            } else {
                progress.println("real-data: skipping " + name + ": " + trainFile(plan, name) + " or its test file "
                        + "not found");
            }
        }
        RealDataReport report = new RealDataReport(peers, algorithms, plan.epsilons());
        Eta eta = new Eta(present.size() * algorithms.size() * plan.epsilons().length);
        for (String name : present) {
            for (String alg : algorithms) {
                for (double eps : plan.epsilons()) {
                    RealDataReport.Cell c = cell(plan, train, name, alg, eps);
                    report.add(c);
                    progress.println(eta.line(c));
                    progress.flush();
                }
            }
        }
        report.write(out, present);
        return report.summary(present);
    }

    private static Path trainFile(Plan plan, String name) {
        return plan.data().resolve(name + "_train.csv");
    }

    private static Path testFile(Plan plan, String name) {
        return plan.data().resolve(name + "_test.csv");
    }

    /** The arguments of one run. */
    static List<String> arguments(Path trainFile, Path testFile, String algorithm, double eps, long seed) {
        List<String> a = new ArrayList<>(List.of("--algorithm", algorithm, "--data", trainFile.toString(),
                "--test-data", testFile.toString(), "--epsilon", RealDataPeers.fmt(eps), "--delta", "1e-5",
                "--seed", Long.toString(seed)));
        a.addAll(protocolFlags(algorithm));
        return a;
    }

    /** The seeded runs of one algorithm at one ε on one dataset (a failed run is recorded with its message). */
    private static RealDataReport.Cell cell(Plan plan, TrainRunner train, String name, String alg, double eps) {
        double[] acc = new double[plan.seeds()];
        double[] secs = new double[plan.seeds()];
        double majority = Double.NaN;
        for (int r = 0; r < plan.seeds(); r++) {
            List<String> args = arguments(trainFile(plan, name), testFile(plan, name), alg, eps, FIRST_SEED + r);
            try {
                Map<String, Object> res = train.train(args);
                acc[r] = ((Number) res.get("test_accuracy")).doubleValue();
                secs[r] = ((Number) res.get("seconds")).doubleValue();
                majority = ((Number) res.get("test_majority_rate")).doubleValue();
            } catch (IllegalStateException e) {
                return RealDataReport.Cell.failed(name, alg, eps, e.getMessage());
            }
        }
        return new RealDataReport.Cell(name, alg, eps, acc, secs, majority, null);
    }

    /** Progress lines with the cells done and an estimate of the time left. */
    private static final class Eta {
        private final int total;
        private final long t0 = System.nanoTime();
        private int done;

        Eta(int total) {
            this.total = total;
        }

        String line(RealDataReport.Cell c) {
            done++;
            double elapsed = (System.nanoTime() - t0) / 1e9;
            double left = elapsed / done * (total - done);
            String what = c.error() != null ? "FAILED: " + c.error()
                    : String.format(java.util.Locale.ROOT, "%.4f ± %.4f (majority %.4f, %.3f s/run)", c.mean(), c.std(),
                            c.majority(), c.secondsMean());
            return String.format(java.util.Locale.ROOT, "real-data [%d/%d, %.0f s left] %s %s eps=%s: %s", done, total,
                    left, c.dataset(), c.algorithm(), RealDataPeers.fmt(c.epsilon()), what);
        }
    }

    /** Summary key of a dataset and algorithm at ε. */
    static String key(String dataset, String algorithm, double eps) {
        return dataset + " " + algorithm + " acc@eps=" + RealDataPeers.fmt(eps);
    }

    /** The map of a summary (insertion order). */
    static Map<String, Object> newSummary() {
        return new LinkedHashMap<>();
    }
}
