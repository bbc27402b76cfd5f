package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpopt train --budget-file} and {@code dpopt budget show}: refusals up front, nothing written. */
class BudgetCliTest {

    private static String[] train(Path data, Path budget, Path model, String... extra) {
        String[] base = {"--budget-file", budget.toString()};
        String[] all = new String[base.length + extra.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return TrainReleaseCliTest.train(data, model, all);
    }

    /** One line on stderr, one JSON error object on stdout, exit 2. */
    static void refused(CliTest.Run r, String start) throws Exception {
        assertEquals(2, r.code(), r.err());
        String[] lines = r.err().strip().split("\n");
        assertEquals(1, lines.length, r.err());
        assertTrue(lines[0].startsWith("dpopt: " + start), lines[0]);
        JsonNode j = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out().strip());
        assertEquals(lines[0], j.get("error").asText());
    }

    @Test
    void runsComposeUntilTheBudgetRefusesTheNextBeforeTraining(@TempDir Path dir) throws Exception {
        Path data = CliTest.trainFile(dir);
        Path budget = dir.resolve("budget.txt");
        // each run is (1, 1e-5)-DP; at delta 1e-4 one spends about 0.82, two about 1.17 (PLD composition, far
        // below the sum 2), three about 1.45: the third does not fit in 1.3
        double[] spent = new double[3];
        for (int k = 1; k <= 2; k++) {
            JsonNode j = CliTest.json(CliTest.run(train(data, budget, dir.resolve("m" + k + ".json"),
                    "--total-epsilon", "1.3", "--total-delta", "1e-4")));
            assertEquals(k, j.get("budget").get("releases").asInt());
            spent[k] = j.get("budget").get("spent_epsilon").asDouble();
            assertTrue(spent[k] <= 1.3 && spent[k] > spent[k - 1], "spent " + spent[k]);
        }
        assertTrue(spent[2] < 2, "two (1, 1e-5) runs must compose to less than their sum: " + spent[2]);
        byte[] before = Files.readAllBytes(budget);
        Path m3 = dir.resolve("m3.json");
        refused(CliTest.run(train(data, budget, m3)), "privacy budget must be enough for train");
        assertFalse(Files.exists(m3), "a refused run wrote its model");
        assertArrayEquals(before, Files.readAllBytes(budget), "a refused run changed the budget file");

        JsonNode show = CliTest.json(CliTest.run("budget", "show", budget.toString(), "--json"));
        assertEquals(2, show.get("releases").size());
        assertEquals(1.3, show.get("total_epsilon").asDouble());
        assertEquals(spent[2], show.get("spent_epsilon").asDouble());
        CliTest.Run text = CliTest.run("budget", "show", budget.toString());
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("releases      2"), text.out());
    }

    @Test
    void theBudgetCannotBeRaisedOrForgedAndBadFlagsWriteNothing(@TempDir Path dir) throws Exception {
        Path data = CliTest.trainFile(dir);
        Path budget = dir.resolve("budget.txt");
        Path m = dir.resolve("m.json");
        refused(CliTest.run(train(data, budget, m)), "--total-epsilon must be given to create the budget file");
        refused(CliTest.run(train(data, budget, m, "--total-epsilon", "0", "--total-delta", "1e-4")),
                "--total-epsilon must be");
        refused(CliTest.run(train(data, budget, m, "--total-epsilon", "Infinity", "--total-delta", "1e-4")),
                "--total-epsilon must be positive and finite");
        refused(CliTest.run(train(data, budget, m, "--total-epsilon", "3", "--total-delta", "1")),
                "--total-delta must be");
        refused(CliTest.run(TrainReleaseCliTest.train(data, m, "--total-epsilon", "3")),
                "--total-epsilon must be absent without --budget-file");
        refused(CliTest.run(train(data, dir, m, "--total-epsilon", "3", "--total-delta", "1e-4")),
                "--budget-file must be a file path, not a directory");
        refused(CliTest.run(train(data, data, m, "--total-epsilon", "3", "--total-delta", "1e-4")),
                "--budget-file must be different from the input");
        refused(CliTest.run(train(data, budget, budget, "--total-epsilon", "3", "--total-delta", "1e-4")),
                "--model-out must be different from the input");
        assertFalse(Files.exists(budget) || Files.exists(m), "a refused run wrote a file");

        CliTest.json(CliTest.run(train(data, budget, m, "--total-epsilon", "3", "--total-delta", "1e-4")));
        Files.delete(m);
        refused(CliTest.run(train(data, budget, m, "--total-epsilon", "30")), "--total-epsilon must be the budget "
                + "file's total 3.0");
        String text = Files.readString(budget);
        Files.writeString(budget, text.replace("total_epsilon 3.0", "total_epsilon 30.0"));
        byte[] forged = Files.readAllBytes(budget);
        refused(CliTest.run(train(data, budget, m)), "budget file");
        refused(CliTest.run("budget", "show", budget.toString(), "--json"), "budget file");
        assertArrayEquals(forged, Files.readAllBytes(budget));
        assertFalse(Files.exists(m));
    }

    @Test
    void nonPrivateRunsAndBadShowArgumentsAreRefused(@TempDir Path dir) throws Exception {
        Path data = CliTest.trainFile(dir);
        Path budget = dir.resolve("budget.txt");
        refused(CliTest.run("train", "--algorithm", "non-private", "--data", data.toString(), "--budget-file",
                budget.toString(), "--total-epsilon", "1", "--total-delta", "1e-5", "--json"),
                "--budget-file must be absent for non-private");
        refused(CliTest.run("budget", "show", dir.resolve("missing").toString(), "--json"), "budget file must be");
        refused(CliTest.run("budget", "show", dir.toString(), "--json"), "budget file must be");
        refused(CliTest.run("budget", "show", data.toString(), "--json"), "budget file");
        refused(CliTest.run("budget", "--json"), "option must be one of those of 'dpopt budget'");
        assertFalse(Files.exists(budget));
    }
}
