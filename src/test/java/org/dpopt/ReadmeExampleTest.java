package org.dpopt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dpopt.data.Dataset;
import org.dpopt.data.DatasetIO;
import org.dpopt.data.Splits;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.models.DpLogisticRegression;
import org.dpopt.models.Model;
import org.dpopt.noise.Rngs;
import org.dpopt.eval.Metrics;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.sgd.NoisySgd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's two library examples, compiled and run: the estimator (on a 200-row training file) and
 * the optimizer-level example for researchers (on the bundled breast-cancer CSV).
 */
class ReadmeExampleTest {

    /** Rows [from, to) of the bundled breast-cancer CSV (30 features in the unit ball, label last). */
    private static Path rows(Path dir, String name, int from, int to) throws Exception {
        List<String> lines;
        try (var in = ReadmeExampleTest.class.getResourceAsStream("/datasets/breast_cancer.csv")) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        Path f = dir.resolve(name);
        Files.write(f, lines.subList(1 + from, 1 + to));
        return f;
    }

    @Test
    void estimatorExampleRuns(@TempDir Path dir) throws Exception {
        rows(dir, "train.csv", 0, 200);
        rows(dir, "test.csv", 200, 300);
        Path modelFile = dir.resolve("model.json");
        Path trainCsv = dir.resolve("train.csv");
        Path testCsv = dir.resolve("test.csv");
        // --- README estimator example (Path.of("train.csv") etc. in the README) ---
        Dataset train = DatasetIO.readCsv(trainCsv);        // label last (0/1), rows with ‖x‖₂ ≤ 1
        Dataset test = DatasetIO.readCsv(testCsv);
        Model model = DpLogisticRegression.builder().epsilon(1.0).delta(1e-5).build().fit(train);
        System.out.println(model.privacy());               // (ε = 0.99.., δ = 1.0E-5)-DP by pld, ADD_OR_REMOVE_ONE; ...
        System.out.println(model.accuracy(test));          // held-out data: not covered by the guarantee
        double[] p = model.predictProbability(new double[30]); // [P(class 0), P(class 1)] for one row
        model.save(modelFile);                             // versioned JSON; Model.load(path), dpopt predict
        // --- end ---
        assertTrue(model.privacy().isPrivate());
        assertTrue(model.privacy().epsilon() <= 1.0 + 1e-9);
        assertEquals(2, p.length);
        assertEquals(200, model.parameters().get("dataset_size") instanceof Long l ? l.intValue() : -1);
        assertEquals(model.accuracy(test), Model.load(modelFile).accuracy(test), 0);
        // The example's own fit draws secure noise (a different model every run, accuracy 0.45 seen once
        // in CI), so usefulness is asserted on research-mode fits with the same settings, seeds 1-10 fixed
        // in advance: deterministic, no false-failure probability.
        double sum = 0;
        for (long seed = 1; seed <= 10; seed++) {
            sum += DpLogisticRegression.builder().epsilon(1.0).delta(1e-5).seed(seed).build().fit(train).accuracy(test);
        }
        assertTrue(sum / 10 > 0.5, "mean accuracy of 10 seeded fits " + sum / 10);
    }

    @Test
    void optimizerExampleRuns(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("train.csv");
        try (var in = ReadmeExampleTest.class.getResourceAsStream("/datasets/breast_cancer.csv")) {
            Files.copy(in, csv);
        }
        // --- README optimizer example ---
        Dataset all = DatasetIO.readCsv(csv);
        Splits.Split split = Splits.random(all, 0.2, Rngs.seeded(7));
        Problem problem = Problem.of(split.train(), Losses.logistic()).withIntercept();
        PrivateOptimizer sgd = NoisySgd.builder().batchSize(256).epochs(30).clipNorm(1.0).build();
        OptimizationResult r = sgd.optimize(problem, PrivacyBudget.of(1.0, 1e-5), Rngs.secure());
        System.out.println(r.privacy());
        System.out.println(Model.fromRun(r, problem, 1.0, new double[] {0, 1}).accuracy(split.test()));
        System.out.println(r.parameters());
        // --- end ---
        assertTrue(r.privacy().epsilon() <= 1.0);
        assertTrue(r.privacy().toString().contains("ADD_OR_REMOVE_ONE"));
        // accuracy on research-mode runs of the same optimizer (seeds 1-5 fixed in advance), not on the
        // example's secure draw: deterministic
        Problem plain = Problem.of(split.train(), Losses.logistic());
        double withIntercept = 0;
        double without = 0;
        for (long seed = 1; seed <= 5; seed++) {
            OptimizationResult s = sgd.optimize(problem, PrivacyBudget.of(1.0, 1e-5), Rngs.seeded(seed));
            withIntercept += Model.fromRun(s, problem, 1.0, new double[] {0, 1}).accuracy(split.test()) / 5;
            OptimizationResult q = sgd.optimize(plain, PrivacyBudget.of(1.0, 1e-5), Rngs.seeded(seed));
            without += Metrics.accuracy(q.solution(), split.test()) / 5;
        }
        assertTrue(withIntercept > 0.6, "mean accuracy with the intercept " + withIntercept);
        assertTrue(without > 0.6, "mean accuracy without the intercept " + without);
    }
}
