package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dpopt.models.Model;
import org.dpopt.noise.NoiseSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dpopt train --engine spark --master local[2]}: the same model (to 1e-9) and the same report as
 * the in-memory run with the same seed (and, for dp-sgd, the keyed sampler the Spark engine runs); the
 * private-release rules unchanged; clear refusals with exit 2.
 */
class SparkTrainCliTest {

    static String[] args(Path data, Path model, String engine, String... extra) {
        List<String> a = new java.util.ArrayList<>(List.of("train", "--data", data.toString(), "--epsilon", "1",
                "--delta", "1e-5", "--model-out", model.toString(), "--json", "--engine", engine));
        if (engine.equals("spark")) {
            a.addAll(List.of("--master", "local[2]"));
        }
        a.addAll(List.of(extra));
        return a.toArray(String[]::new);
    }

    /** A model file's weights, score by score, then its intercepts. */
    static double[] model(Path p) {
        Model m = Model.load(p);
        java.util.stream.DoubleStream.Builder b = java.util.stream.DoubleStream.builder();
        for (double[] w : m.weights()) {
            java.util.Arrays.stream(w).forEach(b::add);
        }
        java.util.Arrays.stream(m.intercepts()).forEach(b::add);
        return b.build().toArray();
    }

    private static CliTest.Run sameRun(Path dir, String... algorithmFlags) throws Exception {
        Path data = CliTest.trainFile(dir);
        return sameRun(dir, data, data, List.of(), algorithmFlags);
    }

    /**
     * The in-memory run on memoryData and the Spark run on sparkData (the same rows) with the same flags
     * (plus sparkOnly): the same model to 1e-9, the same report and held-out metrics. Returns the Spark run.
     */
    static CliTest.Run sameRun(Path dir, Path memoryData, Path sparkData, List<String> sparkOnly,
            String... algorithmFlags) throws Exception {
        Path mm = dir.resolve("memory.json");
        Path ms = dir.resolve("spark.json");
        List<String> sparkFlags = new java.util.ArrayList<>(List.of(algorithmFlags));
        sparkFlags.addAll(sparkOnly);
        CliTest.Run rm = CliTest.run(args(memoryData, mm, "memory", algorithmFlags));
        CliTest.Run rs = CliTest.run(args(sparkData, ms, "spark", sparkFlags.toArray(String[]::new)));
        assertEquals(0, rm.code(), rm.err());
        assertEquals(0, rs.code(), rs.err());
        JsonNode m = CliTest.json(rm);
        JsonNode s = CliTest.json(rs);
        double[] a = model(mm);
        double[] b = model(ms);
        assertEquals(a.length, b.length);
        double num = 0;
        double den = 0;
        for (int j = 0; j < a.length; j++) {
            num += (a[j] - b[j]) * (a[j] - b[j]);
            den += a[j] * a[j];
        }
        assertTrue(Math.sqrt(num) <= 1e-9 * Math.sqrt(den), "relative error " + Math.sqrt(num / den));
        System.out.println("spark vs memory " + String.join(" ", algorithmFlags) + ": relative error "
                + Math.sqrt(num / den));
        for (String k : List.of("algorithm", "loss", "classes", "fit_intercept", "epsilon", "epsilon_lower", "delta",
                "accountant", "relation", "noise", "parameters", "privacy", "test_accuracy", "test_rows")) {
            assertEquals(m.get(k), s.get(k), k);
        }
        assertEquals(m.get("test_loss").asDouble(), s.get("test_loss").asDouble(), 1e-12);
        List<String> keys = iterable(s);
        keys.remove("seed"); // research mode prints its seed
        assertTrue(TrainReleaseCliTest.RELEASE_KEYS.containsAll(keys), "keys " + keys);
        assertTrue(rs.err().contains("step"), "progress on stderr: " + rs.err());
        return rs;
    }

    /** The stderr lines that report progress. */
    private static List<String> progressLines(CliTest.Run r) {
        return r.err().lines().filter(l -> l.contains(" step ")).toList();
    }

    private static List<String> iterable(JsonNode j) {
        List<String> k = new java.util.ArrayList<>();
        j.fieldNames().forEachRemaining(k::add);
        return k;
    }

    @Test
    void dpSgdSeededSparkRunEqualsTheInMemoryRun(@TempDir Path dir) throws Exception {
        sameRun(dir, "--algorithm", "dp-sgd", "--epochs", "3", "--seed", "9");
    }

    @Test
    void dpSgdWithKeyedPlansSeededSparkRunEqualsTheInMemoryRun(@TempDir Path dir) throws Exception {
        sameRun(dir, "--algorithm", "dp-sgd", "--epochs", "3", "--seed", "9", "--sampler", "planned-truncated-poisson");
    }

    @Test
    void noisyFrankWolfeSeededSparkRunEqualsTheInMemoryRun(@TempDir Path dir) throws Exception {
        sameRun(dir, "--algorithm", "noisy-frank-wolfe", "--radius", "2", "--seed", "4");
    }

    @Test
    void objectivePerturbationSeededSparkRunEqualsTheInMemoryRun(@TempDir Path dir) throws Exception {
        CliTest.Run rs = sameRun(dir, "--algorithm", "objective-perturbation", "--radius", "2", "--seed", "4");
        // the number of Newton/backup passes depends on the data: progress shows only the one release
        assertEquals(List.of("objective-perturbation step 1/1"), progressLines(rs).stream()
                .map(l -> l.replaceAll("^dpopt: ", "").replaceAll(" \\(.*\\)$", "")).toList(), rs.err());
    }

    @Test
    void svrgObjectivePerturbationSeededSparkRunEqualsTheInMemoryRun(@TempDir Path dir) throws Exception {
        CliTest.Run rs = sameRun(dir, "--algorithm", "objective-perturbation-svrg", "--radius", "2", "--seed", "4");
        JsonNode p = CliTest.json(rs).get("parameters");
        long planned = p.get("steps").asLong();
        assertEquals(p.get("epochs").asLong() * p.get("inner_steps").asLong(), planned);
        List<String> lines = progressLines(rs);
        assertTrue(lines.get(lines.size() - 1).contains("step " + planned + "/" + planned), rs.err());
        for (String l : lines) {
            long done = Long.parseLong(l.replaceAll(".* step (\\d+)/.*", "$1"));
            assertEquals(0, done % p.get("inner_steps").asLong(), "progress at epoch ends only: " + l);
        }
    }

    @Test
    void objectivePerturbationOnAParquetDirectoryEqualsTheInMemoryRunOnTheSameRows(@TempDir Path dir)
            throws Exception {
        // the same 400 rows as one CSV file (in memory) and as three Parquet part files (on Spark)
        List<org.apache.spark.sql.Row> rows = new java.util.ArrayList<>();
        StringBuilder csv = new StringBuilder("x1,x2,label\n");
        for (int i = 0; i < 400; i++) {
            double a = ((i * 37) % 100) / 200.0;
            double b = ((i * 61) % 100) / 200.0;
            rows.add(org.apache.spark.sql.RowFactory.create(a, b, a > b ? 1.0 : 0.0));
            csv.append(a).append(',').append(b).append(',').append(a > b ? 1.0 : 0.0).append('\n');
        }
        Path memoryData = dir.resolve("rows.csv");
        Files.writeString(memoryData, csv.toString());
        org.apache.spark.sql.types.StructType schema = new org.apache.spark.sql.types.StructType()
                .add("x1", org.apache.spark.sql.types.DataTypes.DoubleType)
                .add("x2", org.apache.spark.sql.types.DataTypes.DoubleType)
                .add("label", org.apache.spark.sql.types.DataTypes.DoubleType);
        Path parts = Files.createDirectory(dir.resolve("rows.parquet"));
        var spark = org.dpopt.spark.SparkEngine.session("local[2]");
        for (int k = 0; k < 3; k++) {
            Path one = dir.resolve("slice" + k);
            spark.createDataFrame(rows.subList(k * 134, Math.min(400, (k + 1) * 134)), schema).coalesce(1).write()
                    .parquet(one.toString());
            try (var files = Files.list(one)) {
                Path part = files.filter(f -> f.getFileName().toString().endsWith(".parquet")).findFirst()
                        .orElseThrow();
                Files.move(part, parts.resolve("part-" + k + ".parquet"));
            }
        }
        for (String alg : List.of("objective-perturbation", "objective-perturbation-svrg")) {
            sameRun(dir, memoryData, parts, List.of("--format", "parquet"), "--algorithm", alg, "--radius", "2",
                    "--seed", "6");
        }
    }

    @Test
    void heldOutFileAndDiagnosticsAsInMemory(@TempDir Path dir) throws Exception {
        Path data = CliTest.trainFile(dir);
        String[] flags = {"--algorithm", "dp-sgd", "--epochs", "2", "--seed", "5", "--test-data", data.toString(),
            "--diagnostics"};
        CliTest.Run rm = CliTest.run(args(data, dir.resolve("a.txt"), "memory", flags));
        CliTest.Run rs = CliTest.run(args(data, dir.resolve("b.txt"), "spark", flags));
        JsonNode m = CliTest.json(rm);
        JsonNode s = CliTest.json(rs);
        assertEquals(300, s.get("test_rows").asInt());
        assertEquals(m.get("test_accuracy"), s.get("test_accuracy"));
        JsonNode dm = m.get("non_private_diagnostics");
        JsonNode ds = s.get("non_private_diagnostics");
        for (String k : List.of("train_rows", "projected_rows", "gradient_evaluations")) {
            assertEquals(dm.get(k).asDouble(), ds.get(k).asDouble(), 1e-9, k);
        }
        assertEquals(dm.get("train_loss").asDouble(), ds.get("train_loss").asDouble(), 1e-12);
        assertTrue(rs.err().contains("NOT PRIVATE"), rs.err());
    }

    @Test
    void parquetDirectoryOfPartFilesTrains(@TempDir Path dir) throws Exception {
        java.util.List<org.apache.spark.sql.Row> rows = new java.util.ArrayList<>();
        for (int i = 0; i < 400; i++) {
            double a = ((i * 37) % 100) / 200.0;
            double b = ((i * 61) % 100) / 200.0;
            rows.add(org.apache.spark.sql.RowFactory.create(a, b, a > b ? 1.0 : 0.0));
        }
        org.apache.spark.sql.types.StructType schema = new org.apache.spark.sql.types.StructType()
                .add("x1", org.apache.spark.sql.types.DataTypes.DoubleType)
                .add("x2", org.apache.spark.sql.types.DataTypes.DoubleType)
                .add("label", org.apache.spark.sql.types.DataTypes.DoubleType);
        Path parts = dir.resolve("train.parquet");
        org.dpopt.spark.SparkEngine.session("local[2]").createDataFrame(rows, schema).repartition(3).write()
                .parquet(parts.toString());
        JsonNode j = CliTest.json(CliTest.run(args(parts, dir.resolve("m.json"), "spark", "--algorithm", "dp-sgd",
                "--format", "parquet", "--dataset-size", "320", "--epochs", "2", "--seed", "1")));
        assertEquals(320, j.get("parameters").get("dataset_size").asInt());
        assertTrue(j.get("test_accuracy").asDouble() > 0.5, "accuracy " + j.get("test_accuracy"));
        Model m = Model.load(dir.resolve("m.json"));
        assertEquals(2, m.dimension());
        assertTrue(m.fitIntercept());
        assertEquals(3, model(dir.resolve("m.json")).length); // two weights and the intercept
    }

    @Test
    void sparkRunsSpendFromABudgetFileAndTheRunThatDoesNotFitIsRefusedBeforeTraining(@TempDir Path dir)
            throws Exception {
        Path data = CliTest.trainFile(dir);
        Path budget = dir.resolve("runs.budget");
        String[] budgetFlags = {"--budget-file", budget.toString(), "--total-epsilon", "1.2", "--total-delta", "1e-5"};
        String[] first = concat(args(data, dir.resolve("m1.json"), "spark", "--algorithm", "dp-sgd", "--epochs", "1"),
                budgetFlags);
        JsonNode j = CliTest.json(CliTest.run(first));
        assertTrue(j.has("budget"), "the release reports the budget: " + j);
        assertTrue(Files.isRegularFile(budget));
        String afterFirst = Files.readString(budget);
        // a second run at epsilon 1 composes past 1.2: refused before any noisy release, nothing written
        String[] second = concat(args(data, dir.resolve("m2.json"), "spark", "--algorithm", "dp-sgd", "--epochs", "1"),
                budgetFlags);
        CliTest.Run r = CliTest.run(second);
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().startsWith("dpopt: privacy budget must be"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(Files.exists(dir.resolve("m2.json")));
        assertEquals(afterFirst, Files.readString(budget));
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void defaultSparkRunIsSecureAndPrintsNoSeed(@TempDir Path dir) throws Exception {
        Path data = CliTest.trainFile(dir);
        JsonNode j = CliTest.json(CliTest.run(args(data, dir.resolve("m.txt"), "spark", "--algorithm", "dp-sgd",
                "--epochs", "1")));
        assertEquals(NoiseSource.SECURE_DESCRIPTION, j.get("noise").asText());
        assertFalse(j.has("seed"));
        assertFalse(j.has("non_private_diagnostics"));
        assertEquals("poisson", j.get("parameters").get("sampler").asText());
    }

    @Test
    void refusalsExitTwoWithOneLineAndWriteNothing(@TempDir Path dir) throws Exception {
        Path data = CliTest.trainFile(dir);
        Path model = dir.resolve("m.txt");
        String[][] bad = {
            args(data, model, "spark", "--algorithm", "prox-sgd"),
            args(data, model, "spark", "--algorithm", "dp-sgd", "--dimension", "3"),
            args(data, model, "memory", "--algorithm", "dp-sgd", "--format", "parquet"),
            args(data, model, "memory", "--algorithm", "dp-sgd", "--master", "local[2]"),
            args(data, model, "cluster", "--algorithm", "dp-sgd"),
            args(data, model, "spark", "--algorithm", "dp-sgd", "--format", "libsvm"),
            args(data, model, "spark", "--algorithm", "objective-perturbation", "--loss", "hinge", "--radius", "2"),
            args(data, model, "spark", "--algorithm", "vr-frank-wolfe"),
            args(data, model, "spark", "--algorithm", "vr-frank-wolfe", "--preset", "paper"),
        };
        String[] expect = {"not available on Spark", "the declared --dimension 3 but was 2", "--format", "--master",
            "--engine", "--dimension", "loss smoothness beta must be finite", "vr-frank-wolfe is not available on Spark",
            "vr-frank-wolfe is not available on Spark"};
        for (int k = 0; k < bad.length; k++) {
            CliTest.Run r = CliTest.run(bad[k]);
            assertEquals(2, r.code(), r.err());
            assertEquals(1, r.err().strip().split("\n").length, r.err());
            assertTrue(r.err().contains(expect[k]), r.err());
            assertFalse(Files.exists(model));
        }
        Path nan = dir.resolve("nan.csv");
        Files.writeString(nan, "x1,x2,label\n0.1,0.2,1\n0.3,NaN,0\n");
        CliTest.Run r = CliTest.run(args(nan, model, "spark", "--algorithm", "dp-sgd"));
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(nan + " line 3 column 2 must be finite but was NaN"), r.err());
        assertEquals(1, r.err().strip().split("\n").length, r.err());
        assertFalse(Files.exists(model));
    }
}
