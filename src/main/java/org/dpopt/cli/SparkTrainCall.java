package org.dpopt.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.DatasetIO;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
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

    /** A finished distributed fit: the result, the release map and the non-private counts. */
    record Fit(OptimizationResult result, Map<String, Object> release, Map<String, Object> diagnostics) {
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

    /** Reads, trains and evaluates on Spark. */
    Fit fit(PrivateOptimizer opt, Loss loss, ConvexSet domain, PrivacyBudget budget, DatasetIO.RowNormPolicy policy,
            UniformRandomProvider rng) {
        requireSpark();
        PrintWriter err = cmd.spec.commandLine().getErr();
        SparkTraining.Request q = new SparkTraining.Request(cmd.master, raw("--data"),
                cmd.testData == null ? null : raw("--test-data"),
                cmd.testFraction != null ? cmd.testFraction : 0.2, cmd.splitSeed,
                SparkData.Format.valueOf(cmd.format.toUpperCase(Locale.ROOT)), cmd.dimension, cmd.rowNormBound, policy,
                cmd.datasetSize == null ? 0 : Checks.atLeastOne("--dataset-size", cmd.datasetSize), opt, loss, domain,
                budget, rng, err);
        SparkTraining.Outcome o = SparkTraining.train(q);
        Map<String, Object> out = release(o.result(), loss, o.testAccuracy(), o.testLoss(), o.testRows(),
                o.seconds());
        Map<String, Object> diag = new LinkedHashMap<>();
        diag.put("train_rows", o.trainRows());
        diag.put("projected_rows", o.projectedRows());
        if (cmd.testData == null) {
            diag.put("test_rows", o.testRows());
        }
        return new Fit(o.result(), out, diag);
    }

    /** The private release and held-out metrics of a Spark run, in a stable key order. */
    private Map<String, Object> release(OptimizationResult r, Loss lossFn, Double testAccuracy, double testLoss, long testRows,
            double seconds) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("algorithm", cmd.algorithm);
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
        if (cmd.testData != null) {
            out.put("test_rows", testRows);
        }
        out.put("test_note", TrainCommand.TEST_NOTE);
        out.put("seconds", seconds);
        if (cmd.seed != null) {
            out.put("seed", cmd.seed);
        }
        return out;
    }

    /** An option's text as typed (a URI such as s3a://bucket/key must not be normalized as a local path). */
    private String raw(String option) {
        return cmd.spec.commandLine().getParseResult().matchedOption(option).stringValues().get(0);
    }

    private void requireSpark() {
        if (!List.of("csv", "libsvm", "parquet").contains(cmd.format)) {
            throw Checks.fail("--format", "csv, libsvm or parquet", cmd.format);
        }
        try {
            Class.forName("org.apache.spark.sql.SparkSession", false, SparkTrainCall.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw Checks.fail("--engine spark", "run with Apache Spark on the class path (./dpopt adds it; on a "
                    + "cluster use spark-submit)", "no Spark classes found");
        }
    }
}
