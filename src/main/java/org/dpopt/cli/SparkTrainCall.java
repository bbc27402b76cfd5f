package org.dpopt.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.DatasetIO;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Losses;
import org.dpopt.models.Model;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.RunPlan;
import org.dpopt.spark.SparkData;
import org.dpopt.spark.SparkTraining;

/**
 * {@code dpopt train --engine spark}: the flags of {@link TrainCommand}, run through
 * {@link SparkTraining}. Spark itself is touched only after it was found on the class path (the shaded
 * jar does not contain it; {@code ./dpopt} and spark-submit add it).
 */
final class SparkTrainCall {

    /** Algorithms with a distributed engine. */
    static final List<String> ALGORITHMS = List.of("dp-sgd", "noisy-frank-wolfe", "objective-perturbation",
            "objective-perturbation-svrg");

    /**
     * A finished distributed fit: the result, the model file it released, held-out metrics, the
     * non-private counts and the training seconds.
     */
    record Fit(OptimizationResult result, Model model, HeldOut test, Map<String, Object> counts, double seconds) {
    }

    private final TrainCommand cmd;

    SparkTrainCall(TrainCommand cmd) {
        this.cmd = cmd;
    }

    /**
     * The flags as the Spark engine runs them: refuses algorithms without a distributed engine. Every
     * dp-sgd sampler runs as it does in memory (sequential samplers draw their batches on the driver; the
     * keyed {@code planned-…} samplers build their plan on the executors).
     */
    static TrainArgs sparkArgs(AlgorithmSpec alg, TrainArgs args) {
        if (!ALGORITHMS.contains(alg.name())) {
            throw Checks.fail("--algorithm", "one of " + ALGORITHMS + " with --engine spark (" + alg.name()
                    + " is not available on Spark)", alg.name());
        }
        return args;
    }

    /**
     * Reads, checks the labels, trains and evaluates on Spark, with the in-memory command's rules: the same
     * loss and class set from the same labels, the same intercept column (built on the executors), the
     * same plan from the same public shape, the same model file.
     */
    Fit fit(AlgorithmSpec alg, TrainArgs args, PrivateOptimizer opt, PrivacyBudget budget,
            DatasetIO.RowNormPolicy policy, UniformRandomProvider rng, java.util.function.Consumer<RunPlan> onPlan) {
        requireSpark();
        TrainData d = cmd.input;
        SparkTraining.Inputs in = SparkTraining.load(new SparkTraining.Source(cmd.engine.master, raw("--data"),
                d.testData == null ? null : raw("--test-data"), d.testFraction(),
                d.splitSeed, SparkData.Format.valueOf(d.format.toUpperCase(Locale.ROOT)), d.dimension,
                d.rowNormBound, policy));
        ConvexSet domain = alg.domain(args);
        TrainSetup.Flags flags = cmd.model.setup(alg.defaultLoss(), domain);
        TrainSetup.Labelled setup = labels(flags, in);
        double c = TrainSetup.interceptScale(flags, d.rowNormBound);
        Integer size = cmd.model.datasetSize;
        int declared = size == null ? 0 : Checks.atLeastOne("--dataset-size", size);
        PrintWriter err = cmd.spec.commandLine().getErr();
        PrivateOptimizer run = alg.checked(opt, args, setup.loss(), c > 0);
        SparkTraining.Outcome o = SparkTraining.train(in, new SparkTraining.Fit(declared, run, setup.loss(), domain,
                c, budget, rng, err, onPlan));
        Model model = Model.fromRun(o.result(), o.shape(), d.rowNormBound, setup.classes(), setup.notes());
        SparkTraining.Evaluation test = SparkTraining.evaluate(in.test(), setup.loss(), c, o.result().solution(),
                model.kind() != Model.Kind.REGRESSION ? model.toJson() : null);
        Map<String, Object> counts = d.counts(in.train().rows(), in.projectedRows(), test.rows());
        Double majority = test.accuracy() != null
                ? MajorityGuard.majorityRate(in.test().labelCounts(), test.rows()) : null;
        return new Fit(o.result(), model, new HeldOut(test.accuracy(), majority, test.loss(), test.rows()), counts,
                o.seconds());
    }

    /** The loss and class set from the labels of the rows on Spark, checked as in memory. */
    private TrainSetup.Labelled labels(TrainSetup.Flags flags, SparkTraining.Inputs in) {
        boolean classification = mayClassify(flags);
        SparkLabels file = SparkLabels.of(in.fileLabels(), classification, "--data");
        SparkLabels train = in.trainLabels() == in.fileLabels() ? file
                : SparkLabels.of(in.trainLabels(), classification, "the training split of --data");
        TrainSetup.Labelled setup;
        try {
            setup = TrainSetup.labels(flags, file.rows(), train.rows(), "--data");
        } catch (IllegalArgumentException e) {
            SparkLabels about = e.getMessage().contains("the training split of") ? train : file;
            throw new IllegalArgumentException(about.mapBack(e.getMessage()), e);
        }
        if (in.testLabels() != null) {
            SparkLabels.of(in.testLabels(), setup.loss().isClassification(), "--test-data")
                    .check(d -> setup.loss().checkLabels(d, "--test-data"));
        }
        return setup;
    }

    /** True if the loss given, or else the default, may be a classification loss. */
    private static boolean mayClassify(TrainSetup.Flags f) {
        String name = f.loss() != null ? f.loss() : f.defaultLoss();
        if (Losses.MULTINOMIAL.equals(name) || !Losses.NAMES.contains(name)) {
            return true;
        }
        return Losses.byName(name).isClassification();
    }

    /** An option's text as typed (a URI such as s3a://bucket/key must not be normalized as a local path). */
    private String raw(String option) {
        return cmd.spec.commandLine().getParseResult().matchedOption(option).stringValues().get(0);
    }

    private void requireSpark() {
        if (!List.of("csv", "libsvm", "parquet").contains(cmd.input.format)) {
            throw Checks.fail("--format", "csv, libsvm or parquet", cmd.input.format);
        }
        try {
            Class.forName("org.apache.spark.sql.SparkSession", false, SparkTrainCall.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw Checks.fail("--engine spark", "run with Apache Spark on the class path (./dpopt adds it; on a "
                    + "cluster use spark-submit)", "no Spark classes found");
        }
    }
}
