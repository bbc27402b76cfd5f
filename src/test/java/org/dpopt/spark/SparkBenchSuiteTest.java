package org.dpopt.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark benchmark's plumbing on small rows (no timing is checked): the two sides run one after the
 * other (as two processes would) give the same tables as both in one run, the tables appear only once
 * both sides ran on the same rows, the by-step layout is left out when asked, and the settings are read
 * and refused as documented.
 */
class SparkBenchSuiteTest {
    private static final String EPOCH_HEADER = "batch_size,steps,memory_epoch_s,memory_planned_epoch_s,spark_epoch_s,"
            + "spark_plan_s,spark_steps_s,spark_task_s,spark_per_step_ms,spark_over_memory,by_step_epoch_s,by_step_plan_s,"
            + "by_step_per_step_ms,driver_sampled_epoch_s,driver_sampled_over_memory";

    private static SparkBenchOptions options(long n, SparkBenchOptions.Side side, boolean byStep) {
        return new SparkBenchOptions(n, 5, new int[] {500, 2000}, 2, "local[2]", side, byStep, 2);
    }

    private static Map<String, Object> run(Path out, SparkBenchOptions o, StringWriter log) throws Exception {
        SparkTests.spark();
        return SparkBenchSuite.run(out, o, new PrintWriter(log));
    }

    @Test
    void separateSidesGiveTheTablesOnceBothHaveRun(@TempDir Path out) throws Exception {
        StringWriter log = new StringWriter();
        Map<String, Object> m = run(out, options(10_000, SparkBenchOptions.Side.MEMORY, false), log);
        assertTrue(Files.isRegularFile(SideResults.file(out, "memory")));
        assertFalse(Files.exists(out.resolve("spark-epoch.csv")));
        assertTrue(String.valueOf(m.get("tables")).contains("-Ddpopt.spark.side=spark"), m.toString());
        assertTrue((Long) m.get("memory_rss_peak_bytes") != 0);
        Map<String, Object> s = run(out, options(10_000, SparkBenchOptions.Side.SPARK, false), log);
        assertTrue(String.valueOf(s.get("processes")).startsWith("separate processes on the same machine"), s.toString());
        List<String> epoch = Files.readAllLines(out.resolve("spark-epoch.csv"));
        assertEquals(EPOCH_HEADER, epoch.get(0));
        assertEquals(3, epoch.size());
        SideResults mem = SideResults.read(out, "memory");
        SideResults sp = SideResults.read(out, "spark");
        for (String line : epoch.subList(1, 3)) {
            String[] c = line.split(",");
            assertEquals(mem.get("memory_epoch_s", c[0]), Double.parseDouble(c[2]));
            assertEquals(sp.get("spark_epoch_s", c[0]), Double.parseDouble(c[4]));
            assertEquals("NaN", c[10], "by-step skipped");
            assertEquals(sp.get("spark_epoch_s", c[0]) / mem.get("memory_epoch_s", c[0]),
                    (Double) s.get("epoch_ratio_spark_over_memory_B" + c[0]));
        }
        assertEquals(List.of("20", "5"), List.of(epoch.get(1).split(",")[1], epoch.get(2).split(",")[1]));
        assertEquals(3, Files.readAllLines(out.resolve("spark-full-gradient.csv")).size());
        assertTrue(Files.isRegularFile(out.resolve("spark-epoch.png")));
        assertTrue(log.toString().contains("by-step layout skipped"), log.toString());
        assertEquals(0L, s.get("spark_cache_disk_bytes"));
        assertTrue((Long) s.get("spark_cache_memory_bytes") >= 8L * 10_000 * 5, s.toString());
    }

    @Test
    void bothSidesInOneRunWriteTheTablesAndNoSideFile(@TempDir Path out) throws Exception {
        Map<String, Object> s = run(out, options(4000, SparkBenchOptions.Side.BOTH, true), new StringWriter());
        assertTrue(String.valueOf(s.get("processes")).startsWith("one process"), s.toString());
        assertFalse(Files.exists(SideResults.file(out, "memory")));
        List<String> epoch = Files.readAllLines(out.resolve("spark-epoch.csv"));
        assertEquals(EPOCH_HEADER, epoch.get(0));
        for (String line : epoch.subList(1, epoch.size())) {
            assertTrue(Double.parseDouble(line.split(",")[10]) > 0, line);
        }
        assertTrue((Double) s.get("full_gradient_ratio") > 0);
    }

    @Test
    void sidesOnDifferentRowsAreNotPutSideBySide(@TempDir Path out) throws Exception {
        SideResults other = new SideResults("memory", 10_000, 5, 2);
        other.put("memory_epoch_s", 1000, 0.5);
        other.write(out);
        Map<String, Object> s = run(out, new SparkBenchOptions(3000, 5, new int[] {1000}, 1, "local[2]",
                SparkBenchOptions.Side.SPARK, false, 2), new StringWriter());
        assertTrue(String.valueOf(s.get("tables")).startsWith("not written: the sides have different rows"),
                s.toString());
        assertFalse(Files.exists(out.resolve("spark-epoch.csv")));
    }

    @Test
    void settingsAreReadAndRefusedAsDocumented() {
        assertEquals(SparkBenchOptions.Side.MEMORY, SparkBenchOptions.side("memory"));
        assertEquals("dpopt.spark.side must be one of both, memory, spark but was Spark",
                assertThrows(IllegalArgumentException.class, () -> SparkBenchOptions.side("Spark")).getMessage());
        assertEquals(2, SparkBenchOptions.localThreads("local"));
        assertEquals(2, SparkBenchOptions.localThreads("local[1]"));
        assertEquals(3, SparkBenchOptions.localThreads("local[3]"));
        assertEquals(Math.max(2, Runtime.getRuntime().availableProcessors()), SparkBenchOptions.localThreads("local[*]"));
        assertEquals(0, SparkBenchOptions.localThreads("spark://host:7077"));
        String old = System.getProperty("dpopt.spark.rows");
        try {
            System.setProperty("dpopt.spark.rows", "10000000");
            assertFalse(SparkBenchOptions.of(false).byStep());
            System.setProperty("dpopt.spark.rows", "9999999");
            assertTrue(SparkBenchOptions.of(false).byStep());
        } finally {
            if (old == null) {
                System.clearProperty("dpopt.spark.rows");
            } else {
                System.setProperty("dpopt.spark.rows", old);
            }
        }
        SparkBenchOptions o = SparkBenchOptions.of(false);
        assertEquals(SparkBenchOptions.Side.BOTH, o.side());
        assertEquals(1_000_000L, o.n());
        assertEquals(2, o.parts());
    }
}
