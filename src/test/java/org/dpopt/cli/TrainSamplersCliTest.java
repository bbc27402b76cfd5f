package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpopt train --algorithm dp-sgd --sampler NAME} for every sampler. */
class TrainSamplersCliTest {

    private static Path data(Path dir) throws Exception {
        StringBuilder sb = new StringBuilder("x1,x2,label\n");
        for (int i = 0; i < 200; i++) {
            double a = ((i * 37) % 100) / 200.0;
            double b = ((i * 61) % 100) / 200.0;
            sb.append(a).append(',').append(b).append(',').append(a > b ? 1 : 0).append('\n');
        }
        Path f = dir.resolve("d.csv");
        Files.writeString(f, sb.toString());
        return f;
    }

    @Test
    void everySamplerTrainsAndReportsItsOwnAccounting(@TempDir Path dir) throws Exception {
        Path f = data(dir);
        for (String s : new String[] {"poisson", "truncated-poisson", "deterministic", "shuffle-persistent",
            "shuffle-dynamic"}) {
            JsonNode j = CliTest.json(CliTest.run("train", "--algorithm", "dp-sgd", "--sampler", s, "--data", f.toString(),
                    "--test-data", f.toString(), "--batch-size", "20", "--epochs", "3", "--epsilon", "2", "--delta", "1e-5",
                    "--json"));
            assertTrue(j.get("epsilon").asDouble() <= 2.0 + 1e-9, s);
            assertEquals(30, j.get("parameters").get("steps").asInt(), s);
            assertEquals(s.equals("poisson") ? "ADD_OR_REMOVE_ONE" : "ZERO_OUT", j.get("relation").asText(), s);
            if (s.startsWith("shuffle")) {
                assertTrue(j.get("epsilon_lower").asDouble() < j.get("epsilon").asDouble(), s);
                assertTrue(j.get("privacy").asText().contains("OPTIMISTIC"), s);
            }
        }
    }

    @Test
    void refusesAnInvalidFixedBatchConfiguration(@TempDir Path dir) throws Exception {
        Path f = data(dir);
        CliTest.Run r = CliTest.run("train", "--algorithm", "dp-sgd", "--sampler", "shuffle-dynamic", "--data",
                f.toString(), "--test-data", f.toString(), "--batch-size", "30", "--epsilon", "2", "--delta", "1e-5");
        assertNotEquals(0, r.code());
        assertTrue(r.err().contains("divisor of the dataset size 200"), r.err());
        CliTest.Run r2 = CliTest.run("train", "--algorithm", "dp-sgd", "--sampler", "deterministic", "--data",
                f.toString(), "--test-data", f.toString(), "--batch-size", "20", "--epochs", "1.5", "--epsilon", "2",
                "--delta", "1e-5");
        assertNotEquals(0, r2.code());
        assertEquals("", r2.out());
    }
}
