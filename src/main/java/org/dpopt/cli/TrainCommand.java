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
import org.dpopt.models.Model;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.RunPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
            + "phase-retrieval|sigmoid|cauchy|multinomial (default per algorithm; multinomial when the training labels "
            + "are not 0/1 or -1/+1, or --classes K >= 3).")
    String loss;
    @Option(names = "--classes", description = "Declare the number of classes K (labels 0..K-1; 2 for a binary loss). "
            + "Default: from the training labels, a class set then treated as public.")
    Integer classes;
    @Option(names = "--intercept", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Fit an intercept (the default); --no-intercept turns it off.")
    boolean intercept;
    @Option(names = "--intercept-scale", description = "The constant c of the intercept's column (default R/2); the "
            + "declared row bound becomes sqrt(R^2 + c^2).")
    Double interceptScale;
    @Option(names = "--seed", description = "Research mode: seed all noise and sampling (reproducible, NOT private "
            + "unless the seed is secret and random). Default: secure noise.")
    Long seed;
    @Option(names = "--secure", description = "Secure noise from a cryptographic generator (the default).")
    boolean secure;
    @Option(names = "--diagnostics", description = "Also compute non-private diagnostics (printed apart, labelled).")
    boolean diagnostics;
    @Option(names = "--model-out", description = "Write the model file (versioned JSON: weights, intercept, classes, "
            + "declared bounds, algorithm, privacy report; read it with dpopt predict).")
    Path modelOut;
    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;
    @Option(names = "--row-norm-bound", defaultValue = "1.0",
            description = "Declared public bound on row L2 norms (default 1); longer rows are projected.")
    double rowNormBound;
    @Option(names = "--reject-long-rows", description = "Reject rows above the bound instead of projecting them.")
    boolean rejectLongRows;
    @Mixin
    BudgetOptions budgetFile;
    @Option(names = "--progress", description = "Show the progress bar (noisy releases done, rate, ETA) on stderr even "
            + "when it is not a terminal.")
    boolean progress;
    @Option(names = "--quiet", description = "No progress bar.")
    boolean quiet;

    @Override
    public Integer call() throws IOException {
        AlgorithmSpec alg = AlgorithmSpecs.get(algorithm);
        boolean onSpark = engine();
        if (progress && quiet) {
            throw Checks.fail("--progress", "absent with --quiet", true);
        }
        ProgressBar bar = new ProgressBar(spec.commandLine().getErr(), ProgressBar.wanted(progress, quiet), "releases");
        TrainArgs args = new TrainArgs(givenFlags(alg), loss != null ? loss : alg.defaultLoss(), diagnostics, bar);
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
        PrivateOptimizer opt = alg.build(args);
        boolean budgeted = budgetFile.given(alg, budget, data, testData);
        TrainLimits.declaredSize(datasetSize);
        if (modelOut != null) {
            OutputPaths.check("--model-out", modelOut, data, testData, budgeted ? budgetFile.file : null);
        }
        if (onSpark) {
            return trainOnSpark(alg, args, opt, budget, budgeted);
        }
        Inputs in = inputs();
        Dataset train = in.train();
        Dataset test = in.test();
        TrainSetup setup = TrainSetup.resolve(new TrainSetup.Flags(loss, alg.defaultLoss(in.read().dataset()), classes,
                intercept,
                interceptScale, alg.domain(args), datasetSize), in.read().dataset(), train, "--data");
        if (testData != null) {
            setup.loss().checkLabels(test, "--test-data");
        }
        Problem problem = setup.problem();
        UniformRandomProvider rng = seed != null ? Rngs.seeded(seed) : Rngs.secure();

        TrainLimits.epochs(args.get(Flag.EPOCHS), problem.shape());
        long t0 = System.nanoTime();
        RunPlan plan = opt.plan(problem.shape(), budget);
        TrainLimits.steps(plan, args.get(Flag.EPOCHS));
        bar.plan(plan.statement());
        try (BudgetOptions.Hold hold = budgeted ? budgetFile.reserve(plan, releaseName()) : null) {
            OptimizationResult r = opt.run(problem, plan, rng);
            bar.finish();
            double seconds = (System.nanoTime() - t0) / 1e9;
            Model model = Model.fromRun(r, problem, rowNormBound, setup.classes(), setup.notes());
            Double accuracy = model.kind() != Model.Kind.REGRESSION ? model.accuracy(test) : null;
            double testLoss = problem.withData(test).empiricalRisk(r.solution());
            Double majority = accuracy != null ? MajorityGuard.majorityRate(test) : null;
            Map<String, Object> out = release(r, model, accuracy, majority, testLoss, test.size(), seconds);
            if (hold != null) {
                out.put("budget", BudgetCommand.summary(budgetFile.file, hold.commit(r.privacy())));
            }
            Map<String, Object> counts = new LinkedHashMap<>();
            counts.put("train_rows", train.size());
            counts.put("projected_rows", in.read().projectedRows());
            if (testData == null) {
                counts.put("test_rows", test.size());
            }
            return finish(r, out, counts, model.toJson());
        }
    }

    /** The release's line in a budget file. */
    private String releaseName() {
        return Main.oneLine("train --algorithm " + algorithm + " --data " + data);
    }

    /** Trains on Spark: the same setup, run, model file and release as in memory. */
    private Integer trainOnSpark(AlgorithmSpec alg, TrainArgs args, PrivateOptimizer opt, PrivacyBudget budget,
            boolean budgeted) throws IOException {
        DatasetIO.RowNormPolicy policy = rejectLongRows ? DatasetIO.RowNormPolicy.REJECT : DatasetIO.RowNormPolicy.PROJECT;
        UniformRandomProvider rng = seed != null ? Rngs.seeded(seed) : Rngs.secure();
        BudgetOptions.Hold[] hold = new BudgetOptions.Hold[1];
        try {
            SparkTrainCall.Fit fit = new SparkTrainCall(this).fit(alg, args, opt, budget, policy, rng,
                    budgeted ? plan -> hold[0] = budgetFile.reserve(plan, releaseName()) : null);
            Map<String, Object> out = release(fit.result(), fit.model(), fit.testAccuracy(), fit.testMajority(),
                    fit.testLoss(), fit.testRows(), fit.seconds());
            if (hold[0] != null) {
                out.put("budget", BudgetCommand.summary(budgetFile.file, hold[0].commit(fit.result().privacy())));
            }
            return finish(fit.result(), out, fit.counts(), fit.model().toJson());
        } finally {
            if (hold[0] != null) {
                hold[0].close();
            }
        }
    }

    /** Adds the diagnostics (if asked for), writes the model file, prints. */
    private Integer finish(OptimizationResult r, Map<String, Object> out, Map<String, Object> counts, String modelText) {
        if (diagnostics) {
            Map<String, Object> diag = new LinkedHashMap<>(r.nonPrivateDiagnostics().asMap());
            diag.putAll(counts);
            out.put("non_private_diagnostics", diag);
        }
        if (modelOut != null) {
            OutputPaths.writeAtomically(modelOut, modelText);
        }
        PrintWriter err = spec.commandLine().getErr();
        if (seed != null) {
            err.println("dpopt: research mode (--seed): noise " + r.noise());
        }
        if (diagnostics) {
            err.println(DIAGNOSTICS_WARNING);
        }
        if (out.get("hint") != null) {
            err.println("dpopt: hint: " + out.get("hint"));
        }
        err.flush();
        print(out);
        return 0;
    }

    /** The training file as read, and the training and test rows (a file each, or a public-seed split). */
    private record Inputs(DatasetIO.ReadResult read, Dataset train, Dataset test) {
    }

    private Inputs inputs() {
        DatasetIO.RowNormPolicy policy = rejectLongRows ? DatasetIO.RowNormPolicy.REJECT : DatasetIO.RowNormPolicy.PROJECT;
        DatasetIO.ReadResult trainRead = read(data, policy);
        if (testData != null) {
            Dataset test = read(testData, policy).dataset();
            if (test.dimension() != trainRead.dataset().dimension()) {
                throw Checks.fail("number of features in --test-data", "equal to the training data's "
                        + trainRead.dataset().dimension(), test.dimension());
            }
            return new Inputs(trainRead, trainRead.dataset(), test);
        }
        Splits.Split s = Splits.random(trainRead.dataset(), testFraction != null ? testFraction : 0.2,
                Rngs.seeded(splitSeed));
        return new Inputs(trainRead, s.train(), s.test());
    }

    /**
     * The private release and held-out metrics (the same for both engines), in a stable key order.
     *
     * @param testAccuracy a classifier's held-out accuracy, null for regression
     */
    private Map<String, Object> release(OptimizationResult r, Model model, Double testAccuracy, Double testMajority,
            double testLoss, long testRows, double seconds) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("algorithm", algorithm);
        out.put("loss", model.loss());
        if (model.kind() != Model.Kind.REGRESSION) {
            out.put("classes", labels(model.classes()));
        }
        out.put("fit_intercept", model.fitIntercept());
        Json.putEpsilon(out, "epsilon", r.privacy().epsilon());
        out.put("epsilon_lower", Json.finiteOrNull(r.privacy().epsilonLower()));
        out.put("delta", Json.finiteOrNull(r.privacy().delta()));
        out.put("accountant", r.privacy().accountant());
        out.put("relation", r.privacy().relation().toString());
        out.put("noise", r.noise());
        out.put("parameters", r.parameters().asMap());
        out.put("privacy", model.privacy().toString());
        if (testAccuracy != null) {
            out.put("test_accuracy", testAccuracy);
            out.put("test_majority_rate", testMajority);
            String hint = MajorityGuard.hint(testAccuracy, testMajority, AlgorithmSpecs.get(algorithm));
            if (hint != null) {
                out.put("hint", hint);
            }
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

    private static List<Long> labels(double[] classes) {
        List<Long> l = new ArrayList<>();
        for (double c : classes) {
            l.add((long) c);
        }
        return l;
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
        TrainLimits.epsilon(epsilon);
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
