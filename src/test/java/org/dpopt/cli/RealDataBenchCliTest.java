package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code dpopt bench --suite real-data --quick} end to end on a small public file (the test copy of
 * heart_scale, used as both training and test file: plumbing only, no accuracy claimed): every private
 * algorithm of {@code dpopt train} runs with its defaults through the command's own code, and the
 * results land in the CSV and the markdown table.
 */
class RealDataBenchCliTest {

    @TempDir
    Path tmp;

    @Test
    void theRunnerListsThePrivateAlgorithmsAndReturnsTheRelease() throws Exception {
        CliTrainRunner runner = new CliTrainRunner();
        List<String> algs = runner.classifiers();
        assertEquals(AlgorithmSpecs.all().size() - 1, algs.size());
        assertTrue(!algs.contains("non-private") && algs.get(0).equals("dp-sgd"), algs.toString());
        Path d = heart(tmp.resolve("h.csv"));
        Map<String, Object> r = runner.train(List.of("--algorithm", "dp-sgd", "--data", d.toString(), "--epsilon", "1",
                "--delta", "1e-5", "--seed", "7", "--test-data", d.toString()));
        assertEquals("dp-sgd", r.get("algorithm"));
        assertTrue(((Number) r.get("test_accuracy")).doubleValue() >= 0);
        assertTrue(((Number) r.get("test_majority_rate")).doubleValue() > 0.5);
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> runner.train(List.of("--algorithm", "dp-sgd", "--data", d.toString(), "--epsilon", "-1", "--delta", "1e-5")));
        assertTrue(e.getMessage().contains("--epsilon must be"), e.getMessage());
    }

    @Test
    void quickSuiteRunsEveryAlgorithmWithItsDefaults() throws Exception {
        Path data = Files.createDirectories(tmp.resolve("shared/data"));
        heart(data.resolve("heart_scale_train.csv"));
        heart(data.resolve("heart_scale_test.csv"));
        Path out = tmp.resolve("out");
        String before = System.getProperty("dpopt.shared.data");
        String setsBefore = System.getProperty("dpopt.real-data.sets");
        System.setProperty("dpopt.shared.data", data.toString());
        System.setProperty("dpopt.real-data.sets", "heart_scale");
        StringWriter err = new StringWriter();
        StringWriter o = new StringWriter();
        int code;
        try {
            CommandLine cl = Main.commandLine();
            cl.setOut(new PrintWriter(o));
            cl.setErr(new PrintWriter(err));
            code = cl.execute("bench", "--suite", "real-data", "--quick", "--progress", "--out", out.toString());
        } finally {
            restore("dpopt.shared.data", before);
            restore("dpopt.real-data.sets", setsBefore);
        }
        assertEquals(0, code, err.toString());
        List<String> csv = Files.readAllLines(out.resolve("real-data.csv"));
        assertEquals(1 + AlgorithmSpecs.all().size() - 1, csv.size());
        for (String row : csv.subList(1, csv.size())) {
            assertTrue(row.endsWith(","), "no run may fail: " + row);
            assertTrue(row.startsWith("heart_scale,") && row.contains(",1,1e-5,2,"), row);
        }
        assertTrue(err.toString().contains("real-data [10/10"), err.toString());
        assertTrue(Files.readString(out.resolve("real-data.md")).contains("| `phased-sgd` |"));
        assertTrue(Files.exists(out.resolve("real-data-heart_scale.png")));
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    private Path heart(Path p) throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/datasets/heart_scale.csv")) {
            Files.copy(in, p);
        }
        return p;
    }
}
