package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dpopt.models.Model;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dpopt predict}: the train → predict round trip, outputs, and the bad-input contract. */
class PredictCliTest {

    /** A file of the bundled breast-cancer rows (label last, header). */
    static Path csv(Path dir, String name, int from, int to, boolean labels) throws Exception {
        List<String> lines;
        try (var in = PredictCliTest.class.getResourceAsStream("/datasets/breast_cancer.csv")) {
            lines = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().toList();
        }
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            String l = lines.get(1 + i);
            sb.append(labels ? l : l.substring(0, l.lastIndexOf(','))).append('\n');
        }
        Path f = dir.resolve(name);
        Files.writeString(f, sb.toString());
        return f;
    }

    @Test
    void predictReproducesTheAccuracyTrainReported(@TempDir Path dir) throws Exception {
        Path train = csv(dir, "train.csv", 0, 450, true);
        Path test = csv(dir, "test.csv", 450, 569, true);
        Path model = dir.resolve("model.json");
        JsonNode t = CliTest.json(CliTest.run("train", "--algorithm", "dp-sgd", "--data", train.toString(),
                "--test-data", test.toString(), "--epsilon", "1", "--delta", "1e-5", "--model-out", model.toString(),
                "--json"));
        JsonNode p = CliTest.json(CliTest.run("predict", "--model", model.toString(), "--data", test.toString(),
                "--json"));
        assertEquals(t.get("test_accuracy").asDouble(), p.get("accuracy").asDouble(), 0.0);
        assertEquals(119, p.get("rows").asInt());
        assertTrue(p.get("labelled").asBoolean());
        assertTrue(p.get("private").asBoolean());
        assertEquals(119, p.get("predictions").size());
        assertTrue(p.get("metric_note").asText().contains("does not cover"));
        Model m = Model.load(model);
        assertEquals(30, m.dimension());
        assertTrue(m.fitIntercept());
        assertTrue(t.get("fit_intercept").asBoolean());
    }

    @Test
    void libsvmRoundTrip(@TempDir Path dir) throws Exception {
        StringBuilder tr = new StringBuilder();
        StringBuilder te = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            double a = ((i * 37) % 100) / 200.0;
            double b = ((i * 61) % 100) / 200.0;
            (i < 240 ? tr : te).append(a > b ? "+1" : "-1").append(" 1:").append(a).append(" 4:").append(b).append('\n');
        }
        Path train = dir.resolve("a.libsvm");
        Path test = dir.resolve("t.libsvm");
        Files.writeString(train, tr.toString());
        Files.writeString(test, te.toString());
        Path model = dir.resolve("m.json");
        JsonNode t = CliTest.json(CliTest.run("train", "--algorithm", "dp-sgd", "--format", "libsvm", "--dimension", "5",
                "--data", train.toString(), "--test-data", test.toString(), "--epsilon", "2", "--delta", "1e-5",
                "--model-out", model.toString(), "--json"));
        assertEquals("[-1,1]", t.get("classes").toString());
        JsonNode p = CliTest.json(CliTest.run("predict", "--model", model.toString(), "--format", "libsvm", "--data",
                test.toString(), "--json"));
        assertEquals(t.get("test_accuracy").asDouble(), p.get("accuracy").asDouble(), 0.0);
        for (JsonNode v : p.get("predictions")) {
            assertTrue(v.asInt() == -1 || v.asInt() == 1, "a prediction in the training encoding: " + v);
        }
    }

    @Test
    void writesPredictionsAndProbabilitiesToOut(@TempDir Path dir) throws Exception {
        Path train = csv(dir, "train.csv", 0, 450, true);
        Path unlabelled = csv(dir, "x.csv", 450, 460, false);
        Path model = dir.resolve("model.json");
        CliTest.json(CliTest.run("train", "--algorithm", "dp-sgd", "--data", train.toString(), "--epsilon", "1",
                "--delta", "1e-5", "--seed", "3", "--model-out", model.toString(), "--json"));
        Path out = dir.resolve("preds.csv");
        CliTest.Run r = CliTest.run("predict", "--model", model.toString(), "--data", unlabelled.toString(), "--out",
                out.toString(), "--proba", "--json");
        JsonNode j = CliTest.json(r);
        assertFalse(j.get("labelled").asBoolean());
        assertFalse(j.has("accuracy"));
        assertFalse(j.has("predictions"), "predictions go to --out");
        assertFalse(j.get("private").asBoolean(), "a seeded model is not private");
        assertTrue(r.err().contains("NOT private"), r.err());
        List<String> lines = Files.readAllLines(out);
        assertEquals("prediction,p_0,p_1", lines.get(0));
        assertEquals(11, lines.size());
        String[] first = lines.get(1).split(",");
        assertTrue(first[0].equals("0") || first[0].equals("1"));
        assertEquals(1.0, Double.parseDouble(first[1]) + Double.parseDouble(first[2]), 1e-12);
        // text mode without --out: CSV on stdout
        CliTest.Run text = CliTest.run("predict", "--model", model.toString(), "--data", unlabelled.toString());
        assertEquals(0, text.code(), text.err());
        assertEquals(11, text.out().strip().split("\n").length);
    }

    @Test
    void badInputExitsTwoWithOneLineAndWritesNothing(@TempDir Path dir) throws Exception {
        Path train = csv(dir, "train.csv", 0, 300, true);
        Path test = csv(dir, "test.csv", 300, 320, true);
        Path model = dir.resolve("model.json");
        CliTest.json(CliTest.run("train", "--algorithm", "dp-sgd", "--data", train.toString(), "--epsilon", "1",
                "--delta", "1e-5", "--model-out", model.toString(), "--json"));
        Path garbage = dir.resolve("garbage.json");
        Files.writeString(garbage, "{\"format\": \"dpopt-model\", \"format_version\": 7}");
        Path narrow = dir.resolve("narrow.csv");
        Files.writeString(narrow, "0.1,0.2,1\n");
        Path threeLabels = dir.resolve("three.csv");
        Files.writeString(threeLabels, Files.readString(test).replaceFirst(",1\n", ",2\n").replaceFirst(",0\n", ",2\n"));
        Path hinge = dir.resolve("hinge.json");
        CliTest.json(CliTest.run("train", "--algorithm", "dp-sgd", "--loss", "hinge", "--data", train.toString(),
                "--epsilon", "1", "--delta", "1e-5", "--model-out", hinge.toString(), "--json"));
        Path out = dir.resolve("p.csv");
        String[][] bad = {
            {"--model", dir.resolve("missing.json").toString(), "--data", test.toString()},
            {"--model", garbage.toString(), "--data", test.toString()},
            {"--model", train.toString(), "--data", test.toString()},
            {"--model", model.toString(), "--data", dir.resolve("missing.csv").toString()},
            {"--model", model.toString(), "--data", narrow.toString()},
            {"--model", model.toString(), "--data", threeLabels.toString()},
            {"--model", model.toString(), "--data", test.toString(), "--format", "arff"},
            {"--model", model.toString(), "--data", test.toString(), "--out", dir.resolve("no/dir/p.csv").toString()},
            {"--model", model.toString(), "--data", test.toString(), "--out", dir.toString()},
            {"--model", model.toString(), "--data", test.toString(), "--out", test.toString()},
            {"--model", model.toString(), "--data", test.toString(), "--out", model.toString()},
            {"--model", hinge.toString(), "--data", test.toString(), "--proba", "--out", out.toString()}};
        String modelText = Files.readString(model);
        String testText = Files.readString(test);
        for (String[] b : bad) {
            String[] args = new String[b.length + 2];
            args[0] = "predict";
            System.arraycopy(b, 0, args, 1, b.length);
            args[args.length - 1] = "--json";
            CliTest.Run r = CliTest.run(args);
            assertEquals(2, r.code(), String.join(" ", b) + ": " + r.err());
            String[] errLines = r.err().strip().split("\n");
            assertEquals(1, errLines.length, r.err());
            assertTrue(errLines[0].startsWith("dpopt: ") && errLines[0].contains(" must be ")
                    && errLines[0].contains(" but was "), errLines[0]);
            assertFalse(r.err().contains("\tat "), "no stack trace");
        }
        assertFalse(Files.exists(out));
        assertEquals(modelText, Files.readString(model));
        assertEquals(testText, Files.readString(test));
    }
}
