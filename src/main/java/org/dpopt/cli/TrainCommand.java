package org.dpopt.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.models.Model;
import org.dpopt.loss.Problem;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.check.ConstantCheck;
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
    @Mixin
    TrainData input;
    @Mixin
    EngineOptions engine;
    @Mixin
    PrivacyTarget target;
    @Mixin
    ModelOptions model;
    @Mixin
    NoiseOptions noise;
    @Option(names = "--diagnostics", description = "Also compute non-private diagnostics (printed apart, labelled).")
    boolean diagnostics;
    @Option(names = "--model-out", description = "Write the model file (versioned JSON: weights, intercept, classes, "
            + "declared bounds, algorithm, privacy report; read it with dpopt predict).")
    Path modelOut;
    @Mixin
    Output output;
    @Mixin
    BudgetOptions budgetFile;
    @Option(names = "--progress", description = "Show the progress bar (noisy releases done, rate, ETA) on stderr even "
            + "when it is not a terminal.")
    boolean progress;
    @Option(names = "--quiet", description = "No progress bar.")
    boolean quiet;

    @Override
    public Integer call() throws IOException {
        CompletableFuture.runAsync(Json::warmUp); // meanwhile, on another core
        AlgorithmSpec alg = AlgorithmSpecs.get(algorithm);
        boolean onSpark = engine.onSpark(input.format);
        if (progress && quiet) {
            throw Checks.fail("--progress", "absent with --quiet", true);
        }
        ProgressBar bar = new ProgressBar(spec.commandLine().getErr(), ProgressBar.wanted(progress, quiet), "releases");
        TrainArgs args = new TrainArgs(givenFlags(alg), model.lossOr(alg.defaultLoss()), diagnostics, bar);
        if (onSpark) {
            args = SparkTrainCall.sparkArgs(alg, args);
        }
        noise.check();
        PrivacyBudget budget = target.budget(alg);
        input.checkHeldOut();
        PrivateOptimizer opt = alg.build(args);
        if (alg.isPrivate()) {
            alg.constantCheckShare(args); // refused before any data is read
        }
        boolean budgeted = budgetFile.given(alg, budget, input.data, input.testData);
        TrainLimits.declaredSize(model.datasetSize);
        if (modelOut != null) {
            OutputPaths.check("--model-out", modelOut, input.data, input.testData, budgeted ? budgetFile.file : null);
        }
        if (onSpark) {
            return trainOnSpark(alg, args, opt, budget, budgeted);
        }
        return trainInMemory(alg, args, opt, budget, budgeted, bar);
    }

    /** Trains in this JVM: reads the rows, resolves the problem, plans, runs and releases. */
    private Integer trainInMemory(AlgorithmSpec alg, TrainArgs args, PrivateOptimizer opt, PrivacyBudget budget,
            boolean budgeted, ProgressBar bar) {
        TrainData.Inputs in = input.read();
        Dataset test = in.test();
        Dataset file = in.read().dataset();
        TrainSetup setup = TrainSetup.resolve(model.setup(alg.defaultLoss(file), alg.domain(args)), file, in.train(),
                "--data");
        if (input.testData != null) {
            setup.loss().checkLabels(test, "--test-data");
        }
        Problem problem = setup.problem();
        opt = alg.checked(opt, args, problem.loss(), problem.hasIntercept());
        UniformRandomProvider rng = noise.rng();
        TrainLimits.epochs(args.get(Flag.EPOCHS), problem.shape());
        long t0 = System.nanoTime();
        RunPlan plan = opt.plan(problem.shape(), budget);
        TrainLimits.steps(plan, args.get(Flag.EPOCHS));
        bar.plan(plan.statement());
        try (BudgetOptions.Hold hold = budgeted ? budgetFile.reserve(plan, releaseName()) : null) {
            OptimizationResult r = opt.run(problem, plan, rng);
            bar.finish();
            double seconds = (System.nanoTime() - t0) / 1e9;
            Model m = Model.fromRun(r, problem, input.rowNormBound, setup.classes(), setup.notes());
            Double accuracy = m.kind() != Model.Kind.REGRESSION ? m.accuracy(test) : null;
            double testLoss = problem.withData(test).empiricalRisk(r.solution());
            Double majority = accuracy != null ? MajorityGuard.majorityRate(test) : null;
            Map<String, Object> out = release(r, m, new HeldOut(accuracy, majority, testLoss, test.size()), seconds,
                    hold);
            return finish(r, out, input.counts(in.train().size(), in.read().projectedRows(), test.size()), m.toJson());
        }
    }

    /** The release's line in a budget file. */
    private String releaseName() {
        return Main.oneLine("train --algorithm " + algorithm + " --data " + input.data);
    }

    /** Trains on Spark: the same setup, run, model file and release as in memory. */
    private Integer trainOnSpark(AlgorithmSpec alg, TrainArgs args, PrivateOptimizer opt, PrivacyBudget budget,
            boolean budgeted) throws IOException {
        BudgetOptions.Hold[] hold = new BudgetOptions.Hold[1];
        try {
            SparkTrainCall.Fit fit = new SparkTrainCall(this).fit(alg, args, opt, budget, input.policy(), noise.rng(),
                    budgeted ? plan -> hold[0] = budgetFile.reserve(plan, releaseName()) : null);
            Map<String, Object> out = release(fit.result(), fit.model(), fit.test(), fit.seconds(), hold[0]);
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
        PrintWriter err = output.err();
        if (noise.seeded()) {
            err.println("dpopt: research mode (--seed): noise " + r.noise());
        }
        if (diagnostics) {
            err.println(DIAGNOSTICS_WARNING);
        }
        if (out.get("hint") != null) {
            err.println("dpopt: hint: " + out.get("hint"));
        }
        err.flush();
        output.print(out, o -> Output.table(o, out, 24));
        return 0;
    }

    /**
     * The private release and held-out metrics (the same for both engines), in a stable key order; with a
     * budget file, the release is recorded in it and its summary added.
     */
    private Map<String, Object> release(OptimizationResult r, Model model, HeldOut test, double seconds,
            BudgetOptions.Hold hold) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("algorithm", algorithm);
        out.put("loss", model.loss());
        if (model.kind() != Model.Kind.REGRESSION) {
            out.put("classes", Json.labels(model.classes()));
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
        java.util.Optional<ConstantCheck.Choice> check = ConstantCheck.choice(r);
        check.ifPresent(c -> out.put("constant_check", c.name().toLowerCase(java.util.Locale.ROOT)));
        if (test.accuracy() != null) {
            out.put("test_accuracy", test.accuracy());
            out.put("test_majority_rate", test.majorityRate());
            String hint = MajorityGuard.hint(test.accuracy(), test.majorityRate(), AlgorithmSpecs.get(algorithm),
                    check.isPresent() && check.get() != ConstantCheck.Choice.TRAINED);
            if (hint != null) {
                out.put("hint", hint);
            }
        }
        out.put("test_loss", Json.finiteOrNull(test.loss()));
        if (input.testData != null) {
            out.put("test_rows", test.rows());
        }
        out.put("test_note", TEST_NOTE);
        out.put("seconds", seconds);
        if (noise.seeded()) {
            out.put("seed", noise.seed);
        }
        if (hold != null) {
            out.put("budget", BudgetCommand.summary(budgetFile.file, hold.commit(r.privacy())));
        }
        return out;
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

}
