package org.dpopt;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dpopt.data.Dataset;
import org.dpopt.data.DatasetIO;
import org.dpopt.data.Splits;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.Metrics;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's library example, compiled and run (on the bundled breast-cancer CSV). */
class ReadmeExampleTest {
    @Test
    void readmeExampleRuns(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("train.csv");
        try (var in = ReadmeExampleTest.class.getResourceAsStream("/datasets/breast_cancer.csv")) {
            Files.copy(in, csv);
        }
        // --- README example ---
        Dataset all = DatasetIO.readCsv(csv);
        Splits.Split split = Splits.random(all, 0.2, Rngs.seeded(7));
        Problem problem = Problem.of(split.train(), Losses.logistic());
        PrivateOptimizer sgd = NoisySgd.builder().batchSize(256).epochs(30).clipNorm(1.0).build();
        OptimizationResult r = sgd.optimize(problem, PrivacyBudget.of(1.0, 1e-5), Rngs.secure());
        // --- end ---
        assertTrue(r.privacy().epsilon() <= 1.0);
        assertTrue(r.privacy().toString().contains("ADD_OR_REMOVE_ONE"));
        assertTrue(Metrics.accuracy(r.solution(), split.test()) > 0.6);
    }
}
