package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The CLI contract: JSON on stdout, exit 2 + one line on stderr for bad input, nothing written. */
class CliTest {

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    static JsonNode json(Run r) throws Exception {
        assertEquals(0, r.code(), r.err());
        String[] lines = r.out().strip().split("\n");
        assertEquals(1, lines.length, "exactly one JSON line expected: " + r.out());
        return new ObjectMapper().readTree(lines[0]);
    }

    static Path trainFile(Path dir) throws Exception {
        StringBuilder sb = new StringBuilder("x1,x2,label\n");
        for (int i = 0; i < 300; i++) {
            double a = ((i * 37) % 100) / 200.0;
            double b = ((i * 61) % 100) / 200.0;
            sb.append(a).append(',').append(b).append(',').append(a > b ? 1 : 0).append('\n');
        }
        Path f = dir.resolve("train.csv");
        Files.writeString(f, sb.toString());
        return f;
    }

    @Test
    void accountEpsilonMatchesLibraryAndIsJson() throws Exception {
        JsonNode j = json(run("account", "epsilon", "--noise-multiplier", "4", "--delta", "1e-5", "--sampler", "poisson",
                "--sampling-rate", "0.01", "--steps", "10000", "--accountant", "rdp", "--json"));
        assertEquals("rdp", j.get("accountant").asText());
        assertEquals("upper", j.get("bound").asText());
        assertEquals("poisson", j.get("sampler").asText());
        double eps = j.get("epsilon").asDouble();
        assertTrue(eps > 0.9 && eps < 1.1, "epsilon " + eps);
    }

    @Test
    void accountCalibrateNeverOvershoots() throws Exception {
        JsonNode j = json(run("account", "calibrate", "--epsilon", "1", "--delta", "1e-5", "--dataset-size", "60000",
                "--batch-size", "256", "--steps", "1000", "--accountant", "rdp", "--json"));
        assertTrue(j.get("epsilon").asDouble() <= 1.0);
        assertTrue(j.get("noise_multiplier").asDouble() > 0.5);
    }

    @Test
    void trainPrintsOneJsonObject(@TempDir Path dir) throws Exception {
        Path f = trainFile(dir);
        Path model = dir.resolve("model.txt");
        JsonNode j = json(run("train", "--algorithm", "dp-sgd", "--data", f.toString(), "--epsilon", "2", "--delta", "1e-5",
                "--epochs", "5", "--model-out", model.toString(), "--json"));
        for (String k : new String[] {"algorithm", "epsilon", "delta", "noise", "parameters", "test_accuracy",
            "test_loss", "test_note", "seconds"}) {
            assertTrue(j.has(k), "missing key " + k);
        }
        assertTrue(j.get("epsilon").asDouble() <= 2.0);
        assertEquals(2, org.dpopt.models.Model.load(model).dimension());
        assertEquals(50, j.get("parameters").get("steps").asInt()); // T = ceil(E n / b) = ceil(5 * 240 / 24)
    }

    @Test
    void badInputExitsTwoWithOneLineAndWritesNothing(@TempDir Path dir) throws Exception {
        Path f = trainFile(dir);
        Path model = dir.resolve("never.txt");
        String[][] bad = {
            {"train", "--algorithm", "dp-sgd", "--data", f.toString(), "--epsilon", "0", "--delta", "1e-5"},
            {"train", "--algorithm", "dp-sgd", "--data", f.toString(), "--epsilon", "1", "--delta", "1.5"},
            {"train", "--algorithm", "dp-sgd", "--data", f.toString(), "--epsilon", "NaN", "--delta", "1e-5"},
            {"train", "--algorithm", "nope", "--data", f.toString(), "--epsilon", "1", "--delta", "1e-5"},
            {"train", "--algorithm", "dp-sgd", "--data", dir.resolve("missing.csv").toString(), "--epsilon", "1",
                "--delta", "1e-5"},
            {"train", "--algorithm", "dp-sgd", "--data", f.toString(), "--epsilon", "1", "--delta", "1e-5",
                "--batch-size", "0"},
            {"train", "--algorithm", "dp-sgd", "--data", f.toString(), "--epsilon", "1", "--delta", "1e-5", "--p", "1.5"},
            {"train", "--algorithm", "non-private", "--data", f.toString(), "--clip-norm", "1"},
            {"train", "--algorithm", "dp-sgd", "--data", f.toString(), "--epsilon", "1", "--delta", "1e-5",
                "--test-fraction", "1.5"},
            {"account", "epsilon", "--noise-multiplier", "-1", "--delta", "1e-5", "--sampling-rate", "0.01", "--steps", "10"},
            {"account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--sampling-rate", "2", "--steps", "10"},
            {"account", "epsilon", "--noise-multiplier", "1", "--delta", "1e-5", "--sampling-rate", "0.1"},
            {"account", "calibrate", "--epsilon", "1", "--delta", "0", "--sampling-rate", "0.1", "--steps", "10"},
            {"account", "bogus", "--noise-multiplier", "1", "--delta", "1e-5", "--sampling-rate", "0.1", "--steps", "10"},
            {"train", "--algorithm", "dp-sgd", "--data", f.toString(), "--epsilon", "1", "--delta", "1e-5", "--bogus"},
        };
        for (String[] args : bad) {
            String[] withOut = java.util.Arrays.copyOf(args, args.length + 2);
            if ("train".equals(args[0])) {
                withOut[args.length] = "--model-out";
                withOut[args.length + 1] = model.toString();
            } else {
                withOut = args;
            }
            Run r = run(withOut);
            assertEquals(2, r.code(), String.join(" ", args) + " -> " + r.err());
            assertEquals(1, r.err().strip().split("\n").length, "one line: " + r.err());
            assertTrue(r.err().contains(" must ") || r.err().contains("Unknown") || r.err().contains("Missing"),
                    "message names the bound: " + r.err());
            assertEquals("", r.out());
            assertFalse(Files.exists(model), "nothing may be written on bad input");
        }
    }

    @Test
    void badCsvIsReportedWithItsLine(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bad.csv");
        Files.writeString(f, "0.1,0.2,1\n0.1,NaN,0\n");
        Run r = run("train", "--algorithm", "dp-sgd", "--data", f.toString(), "--epsilon", "1", "--delta", "1e-5");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("line 2"), r.err());
    }

    @Test
    void demoRunsOnTheBundledDataset() throws Exception {
        JsonNode j = json(run("demo", "--runs", "2", "--json"));
        assertEquals(4, j.get("rows").size());
        for (JsonNode row : j.get("rows")) {
            assertTrue(row.get("epsilon_certified").asDouble() <= row.get("epsilon").asDouble());
            assertTrue(row.get("test_accuracy").asDouble() > 0.5);
        }
    }
}
