package org.dpopt.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.DatasetIO;
import org.dpopt.data.Splits;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
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

/** {@code dpopt train}: fit a model privately on a CSV/LIBSVM file and evaluate it on held-out data. */
@Command(name = "train", mixinStandardHelpOptions = true,
        description = "Train a model with a private optimizer and report test metrics and the privacy guarantee.")
final class TrainCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--algorithm", required = true, description = "Algorithm name (see README).")
    String algorithm;
    @Option(names = "--data", required = true, description = "Training data file (CSV: label last).")
    Path data;
    @Option(names = "--test-data", description = "Held-out test file (else a seeded split).")
    Path testData;
    @Option(names = "--test-fraction", description = "Test fraction of a seeded split (default 0.2).")
    Double testFraction;
    @Option(names = "--format", defaultValue = "csv", description = "csv or libsvm (default csv).")
    String format;
    @Option(names = "--epsilon", description = "Target epsilon > 0.")
    Double epsilon;
    @Option(names = "--delta", description = "Target delta in (0,1).")
    Double delta;
    @Option(names = "--loss", description = "Loss: " + "logistic|hinge|absolute|squared|huber|smoothed-hinge|phase-retrieval|sigmoid|cauchy.")
    String loss;
    @Option(names = "--seed", defaultValue = "42", description = "RNG seed (default 42).")
    long seed;
    @Option(names = "--secure", description = "Use cryptographic randomness (not reproducible).")
    boolean secure;
    @Option(names = "--model-out", description = "Write the model (one weight per line).")
    Path modelOut;
    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;
    @Option(names = "--row-norm-bound", defaultValue = "1.0",
            description = "Declared public bound on row L2 norms (default 1); longer rows are projected.")
    double rowNormBound;
    @Option(names = "--reject-long-rows", description = "Reject rows above the bound instead of projecting them.")
    boolean rejectLongRows;

    @Option(names = "--epochs") Double epochs;
    @Option(names = "--batch-size") Integer batchSize;
    @Option(names = "--clip-norm") Double clipNorm;
    @Option(names = "--learning-rate") Double learningRate;
    @Option(names = "--sampler") String sampler;
    @Option(names = "--radius") Double radius;
    @Option(names = "--l2") Double l2;
    @Option(names = "--p") Double p;
    @Option(names = "--constraint") String constraint;
    @Option(names = "--accountant") String accountant;

    @Override
    public Integer call() throws IOException {
        Algorithms.Spec alg = Algorithms.get(algorithm);
        Set<String> given = new HashSet<>();
        Map<String, Object> hyper = new LinkedHashMap<>();
        hyper.put("--epochs", epochs);
        hyper.put("--batch-size", batchSize);
        hyper.put("--clip-norm", clipNorm);
        hyper.put("--learning-rate", learningRate);
        hyper.put("--sampler", sampler);
        hyper.put("--radius", radius);
        hyper.put("--l2", l2);
        hyper.put("--p", p);
        hyper.put("--constraint", constraint);
        hyper.put("--accountant", accountant);
        for (Map.Entry<String, Object> e : hyper.entrySet()) {
            if (e.getValue() != null) {
                if (!alg.flags().contains(e.getKey())) {
                    throw Checks.fail(e.getKey(), "unused by algorithm " + algorithm + " (accepted: "
                            + new java.util.TreeSet<>(alg.flags()) + ")", e.getValue());
                }
                given.add(e.getKey());
            }
        }
        boolean nonPrivate = "non-private".equals(algorithm);
        if (!nonPrivate && (epsilon == null || delta == null)) {
            throw Checks.fail("--epsilon and --delta", "given for a private algorithm", epsilon + ", " + delta);
        }
        PrivacyBudget budget = nonPrivate ? null : PrivacyBudget.of(epsilon, delta);
        if (testFraction != null && testData != null) {
            throw Checks.fail("--test-fraction", "absent when --test-data is given", testFraction);
        }
        String lossName = loss != null ? loss : alg.defaultLoss();
        Loss lossFn = Losses.byName(lossName);
        if (radius != null) {
            Checks.positive("--radius", radius);
        }
        TrainOptions opts = new TrainOptions(lossName, epochs, batchSize, clipNorm, learningRate, sampler, radius, l2, p,
                constraint, accountant, given);
        PrivateOptimizer opt = alg.factory().apply(opts);

        DatasetIO.RowNormPolicy policy = rejectLongRows ? DatasetIO.RowNormPolicy.REJECT : DatasetIO.RowNormPolicy.PROJECT;
        DatasetIO.ReadResult trainRead = read(data, policy, 0);
        Dataset train;
        Dataset test;
        UniformRandomProvider splitRng = Rngs.seeded(seed ^ 0x5DEECE66DL);
        int projected = trainRead.projectedRows();
        if (testData != null) {
            train = trainRead.dataset();
            DatasetIO.ReadResult tr = read(testData, policy, train.dimension());
            test = tr.dataset();
            if (test.dimension() != train.dimension()) {
                throw Checks.fail("number of features in --test-data", "equal to the training data's " + train.dimension(),
                        test.dimension());
            }
        } else {
            Splits.Split s = Splits.random(trainRead.dataset(), testFraction != null ? testFraction : 0.2, splitRng);
            train = s.train();
            test = s.test();
        }
        if (projected > 0) {
            spec.commandLine().getErr().println("dpopt: note: " + projected + " training rows had norm above "
                    + rowNormBound + " and were projected onto the ball (per-row; no data statistics used)");
        }
        ConvexSet domain = radius != null ? ConvexSets.l2Ball(radius) : ConvexSets.unconstrained();
        if ("nsgd".equals(algorithm) && radius == null) {
            domain = ConvexSets.l2Ball(10.0);
        }
        Problem problem = Problem.of(train, lossFn, domain);
        UniformRandomProvider rng = secure ? Rngs.secure() : Rngs.seeded(seed);

        long t0 = System.nanoTime();
        OptimizationResult r = opt.optimize(problem, budget, rng);
        double seconds = (System.nanoTime() - t0) / 1e9;

        Map<String, Object> out = new LinkedHashMap<>();
        out.put("algorithm", algorithm);
        out.put("loss", lossName);
        out.put("epsilon", r.privacy().epsilon());
        out.put("target_epsilon", budget == null ? null : budget.epsilon());
        out.put("delta", budget == null ? null : budget.delta());
        out.put("epsilon_lower", Double.isNaN(r.privacy().epsilonLower()) ? null : r.privacy().epsilonLower());
        out.put("accountant", r.privacy().accountant());
        out.put("relation", r.privacy().relation().toString());
        if (lossFn.isClassification()) {
            out.put("test_accuracy", Metrics.accuracy(r.solution(), test));
        }
        out.put("test_loss", problem.withData(test).empiricalRisk(r.solution()));

        out.put("steps", r.steps());
        out.put("seconds", seconds);
        out.put("seed", secure ? null : seed);
        out.put("n_train", train.size());
        out.put("n_test", test.size());
        out.put("parameters", r.parameters().asMap());
        out.put("non_private_diagnostics", r.nonPrivateDiagnostics().asMap());
        out.put("privacy", r.privacy().toString());
        if (modelOut != null) {
            StringBuilder sb = new StringBuilder();
            double[] w = r.solution().data;
            for (double v : w) {
                sb.append(v).append('\n');
            }
            Files.writeString(modelOut, sb.toString());
        }
        PrintWriter o = spec.commandLine().getOut();
        if (json) {
            o.println(Json.write(out));
        } else {
            for (Map.Entry<String, Object> e : out.entrySet()) {
                if (e.getValue() != null) {
                    o.printf("%-22s %s%n", e.getKey(), e.getValue());
                }
            }
        }
        o.flush();
        return 0;
    }

    private DatasetIO.ReadResult read(Path f, DatasetIO.RowNormPolicy policy, int libsvmDimension) {
        if (!Files.isRegularFile(f)) {
            throw Checks.fail("data file", "an existing file", f);
        }
        switch (format) {
            case "csv":
                return DatasetIO.readCsv(f, rowNormBound, policy);
            case "libsvm":
                return DatasetIO.readLibsvm(f, libsvmDimension, rowNormBound, policy);
            default:
                throw Checks.fail("--format", "csv or libsvm", format);
        }
    }
}
