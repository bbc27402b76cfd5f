package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpopt train} for the Frank–Wolfe family: JSON output within budget; bad flags exit 2. */
class FrankWolfeCliTest {

    @Test
    void trainsEachAlgorithmWithinBudget(@TempDir Path dir) throws Exception {
        Path f = CliTest.trainFile(dir);
        String[][] configs = {
            {"noisy-frank-wolfe", "--constraint", "l1", "--radius", "5"},
            {"noisy-frank-wolfe", "--constraint", "simplex", "--radius", "1", "--loss", "hinge", "--no-intercept"},
            {"vr-frank-wolfe", "--constraint", "l1", "--radius", "5"},
            {"noisy-sfw", "--constraint", "lp", "--p", "1.5", "--radius", "5"},
            {"noisy-sfw", "--constraint", "l1", "--radius", "5"},
            {"noisy-frank-wolfe", "--preset", "paper", "--radius", "5"},
            {"vr-frank-wolfe"},
            {"vr-frank-wolfe", "--preset", "paper", "--radius", "5"},
            {"vr-frank-wolfe", "--rounds", "2", "--radius", "5"}};
        for (String[] c : configs) {
            String[] args = new String[c.length + 9];
            args[0] = "train";
            args[1] = "--algorithm";
            System.arraycopy(c, 0, args, 2, c.length);
            int k = 2 + c.length;
            args[k++] = "--data";
            args[k++] = f.toString();
            args[k++] = "--epsilon";
            args[k++] = "5";
            args[k++] = "--delta";
            args[k++] = "1e-5";
            args[k] = "--json";
            JsonNode j = CliTest.json(CliTest.run(args));
            assertEquals(c[0], j.get("algorithm").asText());
            assertTrue(j.get("epsilon").asDouble() <= 5.0, String.join(" ", c));
            // the practical defaults of the family run on Poisson batches (add/remove); the paper preset and
            // a given --rounds the one-pass or full-batch report-noisy-max schedules (replace-one)
            boolean batches = !String.join(" ", c).contains("--rounds") && !String.join(" ", c).contains("paper");
            assertEquals(batches ? "ADD_OR_REMOVE_ONE" : "REPLACE_ONE", j.get("relation").asText(), String.join(" ", c));
            if (c[0].equals("vr-frank-wolfe")) {
                // the report says which schedule ran
                assertEquals(String.join(" ", c).contains("paper") ? "paper" : "practical",
                        j.get("parameters").get("preset").asText(), String.join(" ", c));
                assertEquals(batches, j.get("parameters").has("sampling_rate"), String.join(" ", c));
            }
        }
    }

    @Test
    void badConstraintsExitWithCode2(@TempDir Path dir) throws Exception {
        Path f = CliTest.trainFile(dir);
        String[][] bad = {
            {"noisy-frank-wolfe", "--constraint", "lp"},
            {"noisy-frank-wolfe", "--constraint", "l1", "--p", "1.5"},
            {"noisy-sfw", "--constraint", "lp", "--p", "3"},
            {"noisy-sfw", "--constraint", "l1", "--p", "1.5"},
            {"vr-frank-wolfe", "--radius", "-1"}};
        for (String[] c : bad) {
            String[] args = new String[c.length + 8];
            args[0] = "train";
            args[1] = "--algorithm";
            System.arraycopy(c, 0, args, 2, c.length);
            int k = 2 + c.length;
            args[k++] = "--data";
            args[k++] = f.toString();
            args[k++] = "--epsilon";
            args[k++] = "1";
            args[k++] = "--delta";
            args[k] = "1e-5";
            CliTest.Run r = CliTest.run(args);
            assertEquals(2, r.code(), String.join(" ", c) + ": " + r.err());
        }
    }
}
