package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dpopt.models.Model;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** k classes, label checks and the intercept on the command line. */
class MulticlassCliTest {

    /** 300 rows, 2 features, labels from {@code label.apply(i)}. */
    static Path file(Path dir, String name, java.util.function.IntFunction<String> label) throws Exception {
        StringBuilder sb = new StringBuilder("x1,x2,label\n");
        for (int i = 0; i < 300; i++) {
            double a = ((i * 37) % 100) / 200.0;
            double b = ((i * 61) % 100) / 200.0;
            sb.append(a).append(',').append(b).append(',').append(label.apply(i)).append('\n');
        }
        Path f = dir.resolve(name);
        Files.writeString(f, sb.toString());
        return f;
    }

    static String[] train(Path data, Path model, String... extra) {
        return TrainReleaseCliTest.train(data, model, extra);
    }

    @Test
    void threeClassLabelsTrainAMultinomialModelListingItsClasses(@TempDir Path dir) throws Exception {
        Path f = file(dir, "three.csv", i -> Integer.toString(i % 3));
        Path m = dir.resolve("m.json");
        JsonNode j = CliTest.json(CliTest.run(train(f, m)));
        assertEquals("multinomial", j.get("loss").asText());
        assertEquals(3, j.get("classes").size());
        assertTrue(j.get("privacy").asText().contains("class set 0..2 derived from the training labels and treated "
                + "as public"), j.get("privacy").asText());
        Model model = Model.load(m);
        assertEquals(Model.Kind.MULTINOMIAL, model.kind());
        assertEquals(3, model.classes().length);
        assertEquals(3, model.weights().length);
        Path m4 = dir.resolve("m4.json");
        JsonNode declared = CliTest.json(CliTest.run(train(f, m4, "--classes", "4")));
        assertEquals(4, declared.get("classes").size());
        assertFalse(declared.get("privacy").asText().contains("derived from the training labels"));
    }

    @Test
    void labelsABinaryLossCannotReadAreRefused(@TempDir Path dir) throws Exception {
        Path m = dir.resolve("m.json");
        Object[][] cases = {
            {file(dir, "two.csv", i -> i % 3 == 0 ? "2" : Integer.toString(i % 2)), new String[] {"--loss", "logistic"},
                "dpopt: label of row 0 of --data must be 0 or 1 (or -1 or +1) for a binary loss"},
            {file(dir, "half.csv", i -> i % 2 == 0 ? "0.5" : "1"), new String[0],
                "dpopt: label of row 0 of --data must be 0 or 1 (or -1 or +1) for a binary loss"},
            {file(dir, "frac.csv", i -> Double.toString((i % 3) / 2.0)), new String[0],
                "dpopt: label of row 1 of --data must be an integer in 0..1 for a 2-class model but was 0.5"},
            {file(dir, "mixed.csv", i -> Integer.toString(i % 3 - 1)), new String[] {"--loss", "hinge"},
                "dpopt: label of row 1 of --data must be in the encoding of row 0 (-1)"},
            {file(dir, "one.csv", i -> "1"), new String[0],
                "dpopt: labels of --data must be at least two different classes"},
            {file(dir, "big.csv", i -> Integer.toString(i % 5)), new String[] {"--classes", "3"},
                "dpopt: label of row 3 of --data must be an integer in 0..2 for a 3-class model but was 3"},
            {file(dir, "bin.csv", i -> Integer.toString(i % 2)), new String[] {"--classes", "3", "--loss", "logistic"},
                "dpopt: --classes must be 2 for the binary loss logistic"}};
        for (Object[] c : cases) {
            CliTest.Run r = CliTest.run(train((Path) c[0], m, (String[]) c[1]));
            assertEquals(2, r.code(), r.err());
            assertEquals(1, r.err().strip().split("\n").length, r.err());
            assertTrue(r.err().startsWith((String) c[2]), r.err());
            assertFalse(Files.exists(m), "nothing written");
        }
        CliTest.Run phased = CliTest.run("train", "--algorithm", "phased-sgd", "--data",
                file(dir, "k3.csv", i -> Integer.toString(i % 3)).toString(), "--epsilon", "1", "--delta", "1e-5",
                "--model-out", m.toString());
        assertEquals(2, phased.code(), phased.err());
        assertTrue(phased.err().startsWith("dpopt: --loss must be a single-score loss for phased-sgd"), phased.err());
        assertFalse(Files.exists(m), "nothing written");
    }

    @Test
    void interceptIsOnByDefaultAndCanBeTurnedOff(@TempDir Path dir) throws Exception {
        Path f = CliTest.trainFile(dir);
        Path on = dir.resolve("on.json");
        Path off = dir.resolve("off.json");
        Path scaled = dir.resolve("scaled.json");
        JsonNode a = CliTest.json(CliTest.run(train(f, on)));
        JsonNode b = CliTest.json(CliTest.run(train(f, off, "--no-intercept")));
        CliTest.json(CliTest.run(train(f, scaled, "--intercept-scale", "1")));
        assertTrue(a.get("fit_intercept").asBoolean());
        assertFalse(b.get("fit_intercept").asBoolean());
        assertEquals(3, a.get("parameters").get("dimension").asInt());
        assertEquals(2, b.get("parameters").get("dimension").asInt());
        assertEquals(0.5, Model.load(on).interceptScale(), 0);
        assertEquals(0.0, Model.load(off).intercepts()[0], 0);
        assertEquals(1.0, Model.load(scaled).interceptScale(), 0);
        Path m = dir.resolve("m.json");
        CliTest.Run bad = CliTest.run(train(f, m, "--no-intercept", "--intercept-scale", "1"));
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().startsWith("dpopt: --intercept-scale must be absent with --no-intercept"), bad.err());
        CliTest.Run simplex = CliTest.run("train", "--algorithm", "noisy-frank-wolfe", "--constraint", "simplex",
                "--data", f.toString(), "--epsilon", "1", "--delta", "1e-5", "--model-out", m.toString());
        assertEquals(2, simplex.code(), simplex.err());
        assertTrue(simplex.err().startsWith("dpopt: --intercept must be off (give --no-intercept) for the constraint "
                + "set"), simplex.err());
        assertFalse(Files.exists(m));
    }
}
