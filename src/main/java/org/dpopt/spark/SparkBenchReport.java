package org.dpopt.spark;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.dpopt.bench.BenchStats;
import org.dpopt.bench.PeakMemory;
import org.dpopt.bench.Plots;

/**
 * The Spark benchmark's summary and tables from the two sides' results: {@code spark-epoch.csv} and
 * {@code spark-full-gradient.csv} (with their plots) once both sides have run on the same rows, in one
 * process or in two; each side's own figures (times, peak heap, peak resident set) in the summary always.
 */
final class SparkBenchReport {
    private SparkBenchReport() {
    }

    static Map<String, Object> write(Path out, SparkBenchOptions o, SideResults mem, SideResults sp,
            PrintWriter progress) throws IOException {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("n", o.n());
        s.put("d", o.d());
        s.put("side", o.side().label());
        s.put("master", sp != null ? sp.text("master", "") : o.master());
        s.put("by_step_layout", o.side() == SparkBenchOptions.Side.MEMORY ? "n/a" : o.byStep() ? "timed"
                : "skipped (needs a second, shuffled copy of the rows)");
        own(s, mem);
        own(s, sp);
        String missing = mem == null ? "memory" : sp == null ? "spark" : null;
        if (missing != null) {
            s.put("tables", "not written yet: run the " + missing + " side into the same directory ("
                    + "-Ddpopt.spark.side=" + missing + ")");
        } else if (!mem.sameRows(sp)) {
            s.put("tables", "not written: the sides have different rows (memory n=" + mem.n + " d=" + mem.d + " parts="
                    + mem.parts + ", spark n=" + sp.n + " d=" + sp.d + " parts=" + sp.parts + ")");
        } else {
            s.put("processes", o.side() == SparkBenchOptions.Side.BOTH
                    ? "one process (in-memory side first; its rows dropped before Spark generated its own)"
                    : "separate processes on the same machine, one after the other (memory pid " + mem.text("pid", "")
                            + " finished " + mem.text("finished", "") + "; spark pid " + sp.text("pid", "")
                            + " finished " + sp.text("finished", "") + ")");
            epochs(out, mem, sp, s);
            passes(out, mem, sp, s);
        }
        progress.println("tables: " + s.getOrDefault("tables", "spark-epoch.csv, spark-full-gradient.csv ("
                + s.get("processes") + ")"));
        progress.flush();
        return s;
    }

    /** A side's own figures: epoch and pass times, generation time, process memory. */
    private static void own(Map<String, Object> s, SideResults r) {
        if (r == null) {
            return;
        }
        String p = r.side + "_";
        s.put(p + "generate_s", r.get("generate_s", ""));
        if (r.side.equals("memory")) {
            for (String b : r.keys("steps")) {
                s.put("memory_epoch_s_B" + b, r.get("memory_epoch_s", b));
            }
            s.put("full_gradient_memory_median_s", median(values(r, "full_gradient_memory_s")));
        } else {
            for (String b : r.keys("steps")) {
                s.put("spark_epoch_s_B" + b, r.get("spark_epoch_s", b));
                s.put("driver_sampled_epoch_s_B" + b, r.get("driver_sampled_epoch_s", b));
            }
            s.put("full_gradient_spark_median_s", median(values(r, "full_gradient_spark_s")));
            s.put("svrg_rows_fetched", (long) r.get("svrg_rows", ""));
            s.put("full_gradient_with_rows_spark_median_s", median(values(r, "full_gradient_with_rows_s")));
            s.put("rows_only_spark_median_s", median(values(r, "rows_only_s")));
            s.put("spark_cache_memory_bytes", (long) r.get("cache_memory_bytes", ""));
            s.put("spark_cache_disk_bytes", (long) r.get("cache_disk_bytes", ""));
        }
        for (String k : PeakMemory.KEYS) {
            s.put(p + k, (long) r.get(k, ""));
        }
    }

    private static double[] values(SideResults r, String quantity) {
        return r.keys(quantity).stream().mapToDouble(k -> r.get(quantity, k)).toArray();
    }

    /** The median, NaN when a side recorded no value. */
    private static double median(double[] v) {
        return v.length == 0 ? Double.NaN : BenchStats.median(v);
    }

    /** One row of the epoch table (seconds; by-step NaN when not timed). */
    private record Epoch(int b, long steps, double memory, double keyed, double spark, double sparkPlan,
            double sparkTask, double byStep, double byStepPlan, double driverSampled) {
        double perStepMs() {
            return 1000 * (spark - sparkPlan) / steps;
        }

        String csv() {
            return b + "," + steps + "," + memory + "," + keyed + "," + spark + "," + sparkPlan + "," + (spark - sparkPlan)
                    + "," + sparkTask + "," + perStepMs() + "," + spark / memory + "," + byStep + "," + byStepPlan + ","
                    + 1000 * (byStep - byStepPlan) / steps + "," + driverSampled + "," + driverSampled / memory + "\n";
        }
    }

    /** The epoch table (batch sizes both sides timed, in the Spark side's order) as CSV and plot. */
    private static void epochs(Path out, SideResults mem, SideResults sp, Map<String, Object> s) throws IOException {
        List<Epoch> epochs = new ArrayList<>();
        for (String b : sp.keys("steps")) {
            if (mem.has("steps", b)) {
                Epoch e = new Epoch(Integer.parseInt(b), (long) sp.get("steps", b), mem.get("memory_epoch_s", b),
                        mem.get("memory_planned_epoch_s", b), sp.get("spark_epoch_s", b), sp.get("spark_plan_s", b),
                        sp.get("spark_task_s", b), sp.get("by_step_epoch_s", b), sp.get("by_step_plan_s", b),
                        sp.get("driver_sampled_epoch_s", b));
                epochs.add(e);
                s.put("epoch_ratio_spark_over_memory_B" + b, e.spark() / e.memory());
                s.put("epoch_ratio_driver_sampled_over_memory_B" + b, e.driverSampled() / e.memory());
            }
        }
        StringBuilder csv = new StringBuilder("batch_size,steps,memory_epoch_s,memory_planned_epoch_s,spark_epoch_s,"
                + "spark_plan_s,spark_steps_s,spark_task_s,spark_per_step_ms,spark_over_memory,by_step_epoch_s,by_step_plan_s,"
                + "by_step_per_step_ms,driver_sampled_epoch_s,driver_sampled_over_memory\n");
        epochs.forEach(e -> csv.append(e.csv()));
        Files.writeString(out.resolve("spark-epoch.csv"), csv.toString());
        if (epochs.isEmpty()) {
            return;
        }
        double[] bx = column(epochs, Epoch::b);
        List<Plots.Series> series = new ArrayList<>(List.of(
                new Plots.Series("in memory (Poisson)", bx, column(epochs, Epoch::memory)),
                new Plots.Series("in memory (keyed plan)", bx, column(epochs, Epoch::keyed)),
                new Plots.Series("Spark in place (keyed plan, incl. build)", bx, column(epochs, Epoch::spark))));
        if (epochs.stream().noneMatch(e -> Double.isNaN(e.byStep()))) {
            series.add(new Plots.Series("Spark by step (keyed plan, incl. shuffle)", bx, column(epochs, Epoch::byStep)));
        }
        series.add(new Plots.Series("Spark, Poisson drawn on the driver", bx, column(epochs, Epoch::driverSampled)));
        Plots.line(out.resolve("spark-epoch.png"), "One DP-SGD epoch, n=" + sp.n + ", d=" + sp.d + ", "
                + sp.text("master", ""), "expected batch size B", "seconds", series, true, true);
    }

    private static double[] column(List<Epoch> epochs, ToDoubleFunction<Epoch> f) {
        return epochs.stream().mapToDouble(f).toArray();
    }

    /** The full-gradient table (repetitions both sides ran) as CSV and plot; the pass ratio. */
    private static void passes(Path out, SideResults mem, SideResults sp, Map<String, Object> s) throws IOException {
        int reps = Math.min(mem.keys("full_gradient_memory_s").size(), sp.keys("full_gradient_spark_s").size());
        double[] pm = new double[reps];
        double[] ps = new double[reps];
        double[] pw = new double[reps];
        double[] pr = new double[reps];
        StringBuilder g = new StringBuilder("rep,memory_s,spark_s,spark_with_rows_s,spark_rows_only_s\n");
        for (int r = 0; r < reps; r++) {
            pm[r] = mem.get("full_gradient_memory_s", r);
            ps[r] = sp.get("full_gradient_spark_s", r);
            pw[r] = sp.get("full_gradient_with_rows_s", r);
            pr[r] = sp.get("rows_only_s", r);
            g.append(r).append(',').append(pm[r]).append(',').append(ps[r]).append(',').append(pw[r]).append(',')
                    .append(pr[r]).append('\n');
        }
        Files.writeString(out.resolve("spark-full-gradient.csv"), g.toString());
        if (reps == 0) {
            return;
        }
        long k = (long) sp.get("svrg_rows", "");
        double[] rx = BenchStats.indices(reps);
        Plots.line(out.resolve("spark-full-gradient.png"), "Full-gradient pass, n=" + sp.n + ", d=" + sp.d,
                "repetition", "seconds", List.of(new Plots.Series("in memory (1 thread)", rx, pm),
                        new Plots.Series("Spark treeAggregate", rx, ps),
                        new Plots.Series("Spark, with " + k + " rows (SVRG anchor)", rx, pw),
                        new Plots.Series("Spark, " + k + " rows only", rx, pr)), false, false);
        s.put("full_gradient_ratio", median(ps) / median(pm));
    }
}
