package org.dpopt.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.DatasetIO;
import org.dpopt.data.Splits;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.Metrics;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dpopt train}: fit a model privately on a CSV/LIBSVM file and evaluate it on held-out data.
 *
 * <p>What it prints is the private release — the model's privacy report and the planned, public
 * parameters — and test metrics computed on held-out data (which the guarantee does not cover).
 * Non-private diagnostics appear only with {@code --diagnostics}, under their own key. Noise is
 * secure unless {@code --seed} is given.
 */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = "Train a model with a private optimizer and report test metrics and the privacy guarantee.")
final class TrainCommand implements Callable<Integer> {

    /** The label written next to test metrics. */
    static final String TEST_NOTE = "computed on held-out data, which the privacy guarantee does not cover";

    /** The stderr warning of a run with diagnostics. */
    static final String DIAGNOSTICS_WARNING = "dpopt: NOT PRIVATE: \"non_private_diagnostics\" are computed from the "
            + "raw training data and are not covered by the privacy guarantee; do not publish them";

    @Spec
    CommandSpec spec;

    @Option(names = "--algorithm", required = true, description = "Algorithm name (see --help footer).")
    String algorithm;
    @Option(names = "--data", required = true, description = "Training data file (CSV: label last); with --engine "
            + "spark a file or a directory of part files.")
    Path data;
    @Option(names = "--test-data", description = "Held-out test file (else a split of --data).")
    Path testData;
    @Option(names = "--test-fraction", description = "Test fraction of a split of --data (default 0.2).")
    Double testFraction;
    @Option(names = "--split-seed", defaultValue = "1",
            description = "Public seed of the train/test split (default 1; not the noise seed).")
    long splitSeed;
    @Option(names = "--format", defaultValue = "csv", description = "csv, libsvm or parquet (default csv; parquet "
            + "with --engine spark).")
    String format;
    @Option(names = "--engine", defaultValue = "memory", description = "memory (default) or spark: the data-dependent "
            + "sums on Spark executors, noise and accounting on the driver (dp-sgd, noisy-frank-wolfe, "
            + "objective-perturbation, objective-perturbation-svrg).")
    String engine;
    @Option(names = "--master", description = "Spark master with --engine spark (default: spark-submit's, else "
            + "local[*]).")
    String master;
    @Option(names = "--dimension", description = "Number of features d (required for libsvm: indices above it are "
            + "an error; never read off the data).")
    Integer dimension;
    @Option(names = "--dataset-size", description = "Declare the public dataset size n in advance: plans use it and "
            + "the actual number of rows is not released.")
    Integer datasetSize;
    @Option(names = "--epsilon", description = "Target epsilon > 0.")
    Double epsilon;
    @Option(names = "--delta", description = "Target delta in (0,1).")
    Double delta;
    @Option(names = "--loss", description = "Loss: logistic|hinge|absolute|squared|huber|smoothed-hinge|"
            + "phase-retrieval|sigmoid|cauchy (default per algorithm).")
    String loss;
    @Option(names = "--seed", description = "Research mode: seed all noise and sampling (reproducible, NOT private "
            + "unless the seed is secret and random). Default: secure noise.")
    Long seed;
    @Option(names = "--secure", description = "Secure noise from a cryptographic generator (the default).")
    boolean secure;
    @Option(names = "--diagnostics", description = "Also compute non-private diagnostics (printed apart, labelled).")
    boolean diagnostics;
    @Option(names = "--model-out", description = "Write the model (one weight per line).")
    Path modelOut;
    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;
    @Option(names = "--row-norm-bound", defaultValue = "1.0",
            description = "Declared public bound on row L2 norms (default 1); longer rows are projected.")
    double rowNormBound;
    @Option(names = "--reject-long-rows", description = "Reject rows above the bound instead of projecting them.")
    boolean rejectLongRows;

    @Override
    public Integer call() throws IOException {
        AlgorithmSpec alg = AlgorithmSpecs.get(algorithm);
        boolean onSpark = engine();
        TrainArgs args = new TrainArgs(givenFlags(alg), loss != null ? loss : alg.defaultLoss(), diagnostics);
        if (onSpark) {
            args = SparkTrainCall.sparkArgs(alg, args);
        }
        if (seed != null && secure) {
            throw Checks.fail("--seed", "absent with --secure (secure noise cannot be seeded)", seed);
        }
        PrivacyBudget budget = budget(alg);
        if (testFraction != null && testData != null) {
            throw Checks.fail("--test-fraction", "absent when --test-data is given", testFraction);
        }
        Loss lossFn = Losses.byName(args.loss());
        PrivateOptimizer opt = alg.build(args);
        if (modelOut != null) {
            OutputPaths.check("--model-out", modelOut, data, testData);
        }
        DatasetIO.RowNormPolicy policy = rejectLongRows ? DatasetIO.RowNormPolicy.REJECT : DatasetIO.RowNormPolicy.PROJECT;
        UniformRandomProvider rng = seed != null ? Rngs.seeded(seed) : Rngs.secure();
        if (onSpark) {
            SparkTrainCall.Fit fit = new SparkTrainCall(this).fit(opt, lossFn, alg.domain(args), budget, policy, rng);
            return finish(fit.result(), fit.release(), fit.diagnostics());
        }
        DatasetIO.ReadResult trainRead = read(data, policy);
        Dataset train;
        Dataset test;
        if (testData != null) {
            train = trainRead.dataset();
            test = read(testData, policy).dataset();
            if (test.dimension() != train.dimension()) {
                throw Checks.fail("number of features in --test-data", "equal to the training data's " + train.dimension(),
                        test.dimension());
            }
        } else {
            Splits.Split s = Splits.random(trainRead.dataset(), testFraction != null ? testFraction : 0.2,
                    Rngs.seeded(splitSeed));
            train = s.train();
            test = s.test();
        }
        Problem problem = Problem.of(train, lossFn, alg.domain(args));
        if (datasetSize != null) {
            problem = problem.withDeclaredSize(Checks.atLeastOne("--dataset-size", datasetSize));
        }
        long t0 = System.nanoTime();
        OptimizationResult r = opt.optimize(problem, budget, rng);
        double seconds = (System.nanoTime() - t0) / 1e9;

        Double accuracy = lossFn.isClassification() ? Metrics.accuracy(r.solution(), test) : null;
        double testLoss = problem.withData(test).empiricalRisk(r.solution());
        Map<String, Object> out = release(r, lossFn, accuracy, testLoss, test.size(), seconds);
        Map<String, Object> diag = new LinkedHashMap<>();
        diag.put("train_rows", train.size());
        diag.put("projected_rows", trainRead.projectedRows());
        if (testData == null) {
            diag.put("test_rows", test.size());
        }
        return finish(r, out, diag);
    }

    /** Adds the diagnostics (if asked for), writes the model, prints. */
    private Integer finish(OptimizationResult r, Map<String, Object> out, Map<String, Object> counts)
            throws IOException {
        if (diagnostics) {
            Map<String, Object> diag = new LinkedHashMap<>(r.nonPrivateDiagnostics().asMap());
            diag.putAll(counts);
            out.put("non_private_diagnostics", diag);
        }
        if (modelOut != null) {
            StringBuilder sb = new StringBuilder();
            for (double v : r.solution().data) {
                sb.append(v).append('\n');
            }
            OutputPaths.writeAtomically(modelOut, sb.toString());
        }
        PrintWriter err = spec.commandLine().getErr();
        if (seed != null) {
            err.println("dpopt: research mode (--seed): noise " + r.noise());
        }
        if (diagnostics) {
            err.println(DIAGNOSTICS_WARNING);
        }
        err.flush();
        print(out);
        return 0;
    }

    /** The private release and held-out metrics, in a stable key order. */
    Map<String, Object> release(OptimizationResult r, Loss lossFn, Double testAccuracy, double testLoss, long testRows,
            double seconds) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("algorithm", algorithm);
        out.put("loss", lossFn.name());
        Json.putEpsilon(out, "epsilon", r.privacy().epsilon());
        out.put("epsilon_lower", Json.finiteOrNull(r.privacy().epsilonLower()));
        out.put("delta", Json.finiteOrNull(r.privacy().delta()));
        out.put("accountant", r.privacy().accountant());
        out.put("relation", r.privacy().relation().toString());
        out.put("noise", r.noise());
        out.put("parameters", r.parameters().asMap());
        out.put("privacy", r.privacy().toString());
        if (testAccuracy != null) {
            out.put("test_accuracy", testAccuracy);
        }
        out.put("test_loss", Json.finiteOrNull(testLoss));
        if (testData != null) {
            out.put("test_rows", testRows);
        }
        out.put("test_note", TEST_NOTE);
        out.put("seconds", seconds);
        if (seed != null) {
            out.put("seed", seed);
        }
        return out;
    }

    private void print(Map<String, Object> out) {
        PrintWriter o = spec.commandLine().getOut();
        if (json) {
            o.println(Json.write(out));
        } else {
            for (Map.Entry<String, Object> e : out.entrySet()) {
                if (e.getValue() != null) {
                    o.printf("%-24s %s%n", e.getKey(), e.getValue());
                }
            }
        }
        o.flush();
    }

    /** True for --engine spark; refuses an unknown engine and the Spark-only flags in memory. */
    private boolean engine() {
        switch (engine) {
            case "spark":
                return true;
            case "memory":
                if (master != null) {
                    throw Checks.fail("--master", "absent with --engine memory", master);
                }
                if ("parquet".equals(format)) {
                    throw Checks.fail("--format", "csv or libsvm with --engine memory (parquet needs --engine spark)",
                            format);
                }
                return false;
            default:
                throw Checks.fail("--engine", "memory or spark", engine);
        }
    }

    private PrivacyBudget budget(AlgorithmSpec alg) {
        if (!alg.isPrivate()) {
            if (epsilon != null || delta != null) {
                throw Checks.fail(epsilon != null ? "--epsilon" : "--delta", "absent for " + algorithm
                        + " (it makes no privacy claim)", epsilon != null ? epsilon : delta);
            }
            return null;
        }
        if (epsilon == null) {
            throw Checks.fail("--epsilon", "given for a private algorithm", "absent");
        }
        if (delta == null) {
            throw Checks.fail("--delta", "given for a private algorithm", "absent");
        }
        Checks.epsilon("--epsilon", epsilon);
        Checks.delta("--delta", delta);
        return PrivacyBudget.of(epsilon, delta);
    }

    /** The hyperparameter flags given, refusing those the algorithm does not use. */
    private Map<Flag<?>, Object> givenFlags(AlgorithmSpec alg) {
        Map<Flag<?>, Object> given = new LinkedHashMap<>();
        var parsed = spec.commandLine().getParseResult();
        for (Flag<?> f : Flag.ALL) {
            Object v = f.value(parsed);
            if (v == null) {
                continue;
            }
            if (!alg.flags().containsKey(f)) {
                List<String> accepted = new ArrayList<>();
                alg.flags().keySet().forEach(k -> accepted.add(k.name()));
                throw Checks.fail(f.name(), "absent for " + alg.name() + " (it accepts " + accepted + ")", v);
            }
            given.put(f, v);
        }
        return given;
    }

    private DatasetIO.ReadResult read(Path f, DatasetIO.RowNormPolicy policy) {
        if (!Files.isRegularFile(f)) {
            throw Checks.fail("data file", "an existing file", f);
        }
        switch (format) {
            case "csv": {
                DatasetIO.ReadResult r = DatasetIO.readCsv(f, rowNormBound, policy);
                if (dimension != null && r.dataset().dimension() != dimension) {
                    throw Checks.fail("number of features in " + f, "the declared --dimension " + dimension,
                            r.dataset().dimension());
                }
                return r;
            }
            case "libsvm":
                if (dimension == null) {
                    throw Checks.fail("--dimension", "given for --format libsvm (the number of features is a public "
                            + "declaration, never the largest index in the file)", "absent");
                }
                return DatasetIO.readLibsvm(f, Checks.atLeastOne("--dimension", dimension), rowNormBound, policy);
            default:
                throw Checks.fail("--format", "csv or libsvm", format);
        }
    }
}
