package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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

/**
 * {@code dpopt train --engine spark} under the in-memory command's default flags: the intercept column,
 * the loss and class set chosen from the labels (the multinomial loss for three classes), the model
 * file that {@code dpopt predict} reads, and the label and intercept refusals — each the same as the
 * in-memory run, line for line.
 */
class SparkTrainParityCliTest {

    /** 300 rows in three classes (the label is the largest of three scores), features in [0, 0.5]². */
    private static Path threeClassFile(Path dir) throws Exception {
        StringBuilder sb = new StringBuilder("x1,x2,label\n");
        for (int i = 0; i < 300; i++) {
            double a = ((i * 37) % 100) / 200.0;
            double b = ((i * 61) % 100) / 200.0;
            int y = a > b + 0.1 ? 0 : b > a + 0.1 ? 1 : 2;
            sb.append(a).append(',').append(b).append(',').append(y).append('\n');
        }
        Path f = dir.resolve("three.csv");
        Files.writeString(f, sb.toString());
        return f;
    }

    /** Binary rows with a chosen label per row: the i-th label of labels. */
    private static Path labelled(Path dir, String name, double... labels) throws Exception {
        StringBuilder sb = new StringBuilder("x1,x2,label\n");
        for (int i = 0; i < 40; i++) {
            sb.append(0.01 * i).append(',').append(0.3 - 0.005 * i).append(',').append(labels[i % labels.length])
                    .append('\n');
        }
        Path f = dir.resolve(name);
        Files.writeString(f, sb.toString());
        return f;
    }

    @Test
    void multinomialDpSgdWithTheInterceptEqualsTheInMemoryRunAndPredicts(@TempDir Path dir) throws Exception {
        Path data = threeClassFile(dir);
        CliTest.Run rs = SparkTrainCliTest.sameRun(dir, data, data, List.of(), "--algorithm", "dp-sgd", "--epochs",
                "2", "--seed", "3");
        JsonNode j = CliTest.json(rs);
        assertEquals("multinomial", j.get("loss").asText());
        assertEquals("[0,1,2]", j.get("classes").toString());
        assertTrue(j.get("fit_intercept").asBoolean());
        Model m = Model.load(dir.resolve("spark.json"));
        assertEquals(Model.Kind.MULTINOMIAL, m.kind());
        assertEquals(3, m.weights().length);
        assertEquals(2, m.dimension());
        assertTrue(m.privacy().toString().contains("class set 0..2 derived from the training labels"),
                m.privacy().toString());
        assertSamePredictions(dir, data);
    }

    @Test
    void binaryModelFileOfASparkRunIsTheInMemoryOneAndPredicts(@TempDir Path dir) throws Exception {
        Path data = CliTest.trainFile(dir);
        SparkTrainCliTest.sameRun(dir, data, data, List.of(), "--algorithm", "dp-sgd", "--epochs", "2", "--seed",
                "8");
        Model a = Model.load(dir.resolve("memory.json"));
        Model b = Model.load(dir.resolve("spark.json"));
        assertTrue(b.fitIntercept());
        assertEquals(a.interceptScale(), b.interceptScale(), 0.0);
        assertEquals(a.rowNormBound(), b.rowNormBound(), 0.0);
        assertArrayEquals(a.classes(), b.classes(), 0.0);
        assertEquals(a.parameters(), b.parameters());
        assertEquals(a.privacy().toString(), b.privacy().toString());
        assertSamePredictions(dir, data);
    }

    /** {@code dpopt predict} reads both model files and gives the same predictions and accuracy. */
    private static void assertSamePredictions(Path dir, Path data) throws Exception {
        JsonNode pm = CliTest.json(CliTest.run("predict", "--model", dir.resolve("memory.json").toString(), "--data",
                data.toString(), "--json"));
        JsonNode ps = CliTest.json(CliTest.run("predict", "--model", dir.resolve("spark.json").toString(), "--data",
                data.toString(), "--json"));
        assertEquals(pm.get("accuracy"), ps.get("accuracy"));
        assertEquals(pm.get("predictions"), ps.get("predictions"));
        assertEquals(300, ps.get("rows").asInt());
    }

    @Test
    void interceptOffAndAnotherScaleAsInMemory(@TempDir Path dir) throws Exception {
        Path data = CliTest.trainFile(dir);
        JsonNode off = CliTest.json(SparkTrainCliTest.sameRun(dir, data, data, List.of(), "--algorithm",
                "noisy-frank-wolfe", "--radius", "2", "--seed", "4", "--no-intercept"));
        assertFalse(off.get("fit_intercept").asBoolean());
        assertEquals(2, SparkTrainCliTest.model(dir.resolve("spark.json")).length - 1); // the zero intercept
        assertEquals(0.0, Model.load(dir.resolve("spark.json")).intercepts()[0], 0.0);
        SparkTrainCliTest.sameRun(dir, data, data, List.of(), "--algorithm", "objective-perturbation", "--radius",
                "2", "--seed", "4", "--intercept-scale", "0.25");
        assertEquals(0.25, Model.load(dir.resolve("spark.json")).interceptScale(), 0.0);
    }

    @Test
    void regressionRunAsInMemory(@TempDir Path dir) throws Exception {
        Path data = CliTest.trainFile(dir);
        JsonNode j = CliTest.json(SparkTrainCliTest.sameRun(dir, data, data, List.of(), "--algorithm", "dp-sgd",
                "--loss", "squared", "--epochs", "1", "--seed", "2"));
        assertFalse(j.has("classes"));
        assertFalse(j.has("test_accuracy"));
        assertEquals(Model.Kind.REGRESSION, Model.load(dir.resolve("spark.json")).kind());
    }

    @Test
    void labelAndInterceptRefusalsAreTheInMemoryOnesAndWriteNothing(@TempDir Path dir) throws Exception {
        Path three = threeClassFile(dir);
        Path two = labelled(dir, "two.csv", 0, 1, 1, 2, 0);
        Path mixed = labelled(dir, "mixed.csv", 0, 1, 1, -1);
        Path one = labelled(dir, "one.csv", 1);
        Path model = dir.resolve("m.json");
        String[][] flags = {
            {"--algorithm", "noisy-frank-wolfe", "--radius", "2"},
            {"--algorithm", "objective-perturbation", "--radius", "2"},
            {"--algorithm", "dp-sgd", "--loss", "logistic"},
            {"--algorithm", "dp-sgd", "--loss", "logistic"},
            {"--algorithm", "dp-sgd"},
            {"--algorithm", "dp-sgd", "--classes", "2"},
            {"--algorithm", "dp-sgd", "--no-intercept", "--intercept-scale", "0.5"},
            {"--algorithm", "dp-sgd", "--intercept-scale", "-1"},
            {"--algorithm", "dp-sgd", "--loss", "multinomial", "--classes", "2"},
            {"--algorithm", "dp-sgd", "--test-data", two.toString()},
        };
        Path[] files = {three, three, two, mixed, one, three, three, three, three, CliTest.trainFile(dir)};
        String[] expect = {"but was multinomial", "but was multinomial", "label of row 3 of --data",
            "in the encoding of row 0", "at least two different classes", "label of row", "--intercept-scale",
            "--intercept-scale", "label of row", "label of row 3 of --test-data"};
        for (int k = 0; k < flags.length; k++) {
            CliTest.Run rm = CliTest.run(SparkTrainCliTest.args(files[k], model, "memory", flags[k]));
            CliTest.Run rs = CliTest.run(SparkTrainCliTest.args(files[k], model, "spark", flags[k]));
            assertEquals(2, rm.code(), rm.err());
            assertEquals(2, rs.code(), rs.err());
            assertEquals(rm.out(), rs.out(), "the same JSON error object");
            assertEquals(1, rs.out().strip().split("\n").length, rs.out());
            assertEquals(rm.err(), rs.err(), "the same one line on stderr");
            assertEquals(1, rs.err().strip().split("\n").length, rs.err());
            assertTrue(rs.out().contains(expect[k]), rs.out());
            assertFalse(Files.exists(model));
        }
    }
}
