package org.dpopt.spark;

import static org.dpopt.bench.BenchStats.median;
import static org.dpopt.bench.BenchStats.seconds;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.apache.spark.sql.SparkSession;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.bench.BenchStats;
import org.dpopt.bench.BenchSuite;
import org.dpopt.bench.Plots;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.oracle.DatasetPasses;
import org.dpopt.sampling.Samplers;
import org.ejml.data.DMatrixRMaj;

/**
 * {@code dpopt bench --suite spark}: the Spark engine in local mode against the in-memory engine on the
 * same synthetic logistic rows (generated on the executors for Spark, and identically in the driver for
 * memory). For expected batch sizes B: one DP-SGD epoch in memory (the sequential Poisson sampler, and
 * the keyed one) and on Spark (keyed plan build + T steps), the per-step time, the plan-build time; and
 * the full-gradient pass time (alone, with an SVRG epoch's rows, and the row fetch alone). Sizes: n from the system property {@code dpopt.spark.rows} (default 10⁶),
 * d = 100, master from {@code dpopt.spark.master} (default local[2]); {@code --quick}: n = 2·10⁴, d = 20.
 */
public final class SparkBenchSuite implements BenchSuite {

    @Override
    public String name() {
        return "spark";
    }

    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception {
        long n = quick ? 20_000 : Long.getLong("dpopt.spark.rows", 1_000_000L);
        int d = quick ? 20 : 100;
        int[] batches = quick ? new int[] {100, 1000} : Arrays.stream(System.getProperty("dpopt.spark.batches",
                "1000,10000,100000").split(",")).mapToInt(Integer::parseInt).toArray();
        int reps = quick ? 2 : 5;
        SparkEngine.quietTaskFailures();
        SparkSession spark = SparkEngine.session(System.getProperty("dpopt.spark.master", "local[2]"));
        int parts = Math.max(2, SparkEngine.context(spark).defaultParallelism());
        progress.printf("spark bench: n=%d d=%d master=%s%n", n, d, spark.sparkContext().master());
        progress.flush();
        long t0 = System.nanoTime();
        DistributedData dist = SparkSynthetic.distributed(spark, n, d, parts, 1);
        double genSpark = (System.nanoTime() - t0) / 1e9;
        Dataset mem = SparkSynthetic.inMemory(n, d, parts, 1);
        Problem problem = Problem.of(mem, Losses.logistic());
        ProblemShape shape = dist.shape(Losses.logistic(), ConvexSets.unconstrained(), 0);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("n", n);
        summary.put("d", d);
        summary.put("master", spark.sparkContext().master());
        summary.put("spark_generate_s", genSpark);
        List<Epoch> epochs = new ArrayList<>();
        for (int b : batches) {
            Epoch e = epoch(b, problem, dist, shape);
            epochs.add(e);
            report(e, progress);
            summary.put("epoch_ratio_spark_over_memory_B" + e.b(), e.spark() / e.memory());
            summary.put("epoch_ratio_driver_sampled_over_memory_B" + e.b(), e.driverSampled() / e.memory());
        }
        writeEpochs(out, epochs, "One DP-SGD epoch, n=" + n + ", d=" + d + ", " + spark.sparkContext().master());
        fullGradient(out, dist, mem, reps, summary);
        dist.unpersist();
        return summary;
    }

    private static void report(Epoch e, PrintWriter progress) {
        progress.printf("B=%d T=%d: memory %.2f s, memory keyed %.2f s, spark %.2f s (plan %.2f s, %.1f ms/step, "
                + "%.1f ms/step in the task); by-step layout %.2f s (plan %.2f s); driver-sampled Poisson %.2f s%n",
                e.b(), e.steps(), e.memory(), e.keyed(), e.spark(), e.sparkPlan(), e.perStepMs(),
                1000 * e.sparkTask() / e.steps(), e.byStep(), e.byStepPlan(), e.driverSampled());
        progress.flush();
    }

    /** The epoch table as CSV and as a plot of seconds against B. */
    private static void writeEpochs(Path out, List<Epoch> epochs, String title) throws java.io.IOException {
        StringBuilder csv = new StringBuilder("batch_size,steps,memory_epoch_s,memory_planned_epoch_s,spark_epoch_s,"
                + "spark_plan_s,spark_steps_s,spark_task_s,spark_per_step_ms,spark_over_memory,by_step_epoch_s,by_step_plan_s,"
                + "by_step_per_step_ms,driver_sampled_epoch_s,driver_sampled_over_memory\n");
        epochs.forEach(e -> csv.append(e.csv()));
        Files.writeString(out.resolve("spark-epoch.csv"), csv.toString());
        double[] bx = column(epochs, Epoch::b);
        Plots.line(out.resolve("spark-epoch.png"), title, "expected batch size B", "seconds", List.of(
                new Plots.Series("in memory (Poisson)", bx, column(epochs, Epoch::memory)),
                new Plots.Series("in memory (keyed plan)", bx, column(epochs, Epoch::keyed)),
                new Plots.Series("Spark in place (keyed plan, incl. build)", bx, column(epochs, Epoch::spark)),
                new Plots.Series("Spark by step (keyed plan, incl. shuffle)", bx, column(epochs, Epoch::byStep)),
                new Plots.Series("Spark, Poisson drawn on the driver", bx, column(epochs, Epoch::driverSampled))),
                true, true);
    }

    private static double[] column(List<Epoch> epochs, ToDoubleFunction<Epoch> f) {
        return epochs.stream().mapToDouble(f).toArray();
    }

    /** One row of the epoch table (seconds). */
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

    /**
     * One DP-SGD epoch at expected batch size b: in memory (sequential Poisson, keyed plan; the fastest of
     * three runs), on Spark in place (the faster of two: the first warms the JIT) and by step (one run).
     */
    private static Epoch epoch(int b, Problem problem, DistributedData dist, ProblemShape shape) {
        NoisySgd seq = NoisySgd.builder().batchSize(b).epochs(1).noiseMultiplier(1.0).accountant(new RdpAccountant())
                .build();
        NoisySgd planned = seq.toBuilder().sampler(Samplers.byName("planned-poisson")).build();
        RunPlan seqPlan = seq.plan(problem.shape(), PrivacyBudget.of(100, 1e-6));
        RunPlan plan = planned.plan(shape, PrivacyBudget.of(100, 1e-6));
        long steps = plan.parameters().asMap().get("steps") instanceof Number s ? s.longValue() : 0;
        double tm = Double.POSITIVE_INFINITY;
        double tp = Double.POSITIVE_INFINITY;
        for (int r = 0; r < 3; r++) {
            long seed = r;
            tm = Math.min(tm, seconds(() -> seq.run(problem, seqPlan, Rngs.seeded(seed))));
            tp = Math.min(tp, seconds(() -> planned.run(problem, plan, Rngs.seeded(seed))));
        }
        SparkBatches warm = new SparkBatches(dist, Losses.logistic(), null);
        double tw = seconds(() -> planned.run(warm, shape, dist.rows(), plan, Rngs.seeded(4)));
        SparkBatches second = new SparkBatches(dist, Losses.logistic(), null);
        double ts = seconds(() -> planned.run(second, shape, dist.rows(), plan, Rngs.seeded(3)));
        SparkBatches fastest = tw < ts ? warm : second;
        SparkBatches byStep = new SparkBatches(dist, Losses.logistic(), null, SparkBatches.Layout.BY_STEP);
        double tb = seconds(() -> planned.run(byStep, shape, dist.rows(), plan, Rngs.seeded(3)));
        double td = Math.min(seconds(() -> seq.run(new SparkBatches(dist, Losses.logistic(), null), shape, dist.rows(),
                seqPlan, Rngs.seeded(3))), seconds(() -> seq.run(new SparkBatches(dist, Losses.logistic(), null), shape,
                        dist.rows(), seqPlan, Rngs.seeded(4))));
        return new Epoch(b, steps, tm, tp, Math.min(tw, ts), fastest.planSeconds(), fastest.taskSeconds(), tb,
                byStep.planSeconds(), td);
    }

    /**
     * Full-gradient passes, in memory (one thread) and by treeAggregate, and on Spark the same pass that
     * also returns k = min(n, 10⁴) drawn rows (an SVRG anchor with the next epoch's rows) and a row fetch
     * alone; fills the summary, writes CSV + PNG.
     */
    private static void fullGradient(Path out, DistributedData dist, Dataset mem, int reps, Map<String, Object> summary)
            throws java.io.IOException {
        long n = dist.rows();
        int d = dist.dimension();
        GeneralizedLinearLoss loss = Losses.logistic();
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        Arrays.fill(w.data, 0.01);
        SparkPasses passes = new SparkPasses(dist);
        DatasetPasses local = new DatasetPasses(mem);
        int k = (int) Math.min(n, 10_000);
        long[] ids = new long[k];
        var draws = Rngs.seeded(5);
        Arrays.setAll(ids, t -> draws.nextLong(n));
        double[] pm = new double[reps];
        double[] ps = new double[reps];
        double[] pw = new double[reps];
        double[] pr = new double[reps];
        StringBuilder g = new StringBuilder("rep,memory_s,spark_s,spark_with_rows_s,spark_rows_only_s\n");
        for (int r = 0; r < reps; r++) {
            pm[r] = seconds(() -> local.meanGradient(loss, w, new DMatrixRMaj(d, 1)));
            ps[r] = seconds(() -> passes.meanGradient(loss, w, new DMatrixRMaj(d, 1)));
            pw[r] = seconds(() -> passes.meanGradientAndRows(loss, w, new DMatrixRMaj(d, 1), ids, k));
            pr[r] = seconds(() -> passes.rows(ids, k));
            g.append(r).append(',').append(pm[r]).append(',').append(ps[r]).append(',').append(pw[r]).append(',')
                    .append(pr[r]).append('\n');
        }
        Files.writeString(out.resolve("spark-full-gradient.csv"), g.toString());
        double[] rx = BenchStats.indices(reps);
        Plots.line(out.resolve("spark-full-gradient.png"), "Full-gradient pass, n=" + n + ", d=" + d, "repetition",
                "seconds", List.of(new Plots.Series("in memory (1 thread)", rx, pm),
                        new Plots.Series("Spark treeAggregate", rx, ps),
                        new Plots.Series("Spark, with " + k + " rows (SVRG anchor)", rx, pw),
                        new Plots.Series("Spark, " + k + " rows only", rx, pr)), false, false);
        summary.put("full_gradient_memory_median_s", median(pm));
        summary.put("full_gradient_spark_median_s", median(ps));
        summary.put("full_gradient_ratio", median(ps) / median(pm));
        summary.put("svrg_rows_fetched", k);
        summary.put("full_gradient_with_rows_spark_median_s", median(pw));
        summary.put("rows_only_spark_median_s", median(pr));
    }
}
