package org.dpopt.spark;

import static org.dpopt.bench.BenchStats.seconds;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.bench.BenchSuite;
import org.dpopt.bench.PeakMemory;
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
 * same synthetic logistic rows (generated on the executors for Spark, and identically, in place, for
 * memory). For expected batch sizes B: one DP-SGD epoch in memory (the sequential Poisson sampler, and
 * the keyed one) and on Spark (keyed plan build + T steps; by-step layout; Poisson drawn on the driver),
 * the per-step time, the plan-build time; and the full-gradient pass time (alone, with an SVRG epoch's
 * rows, and the row fetch alone). The in-memory side runs first and its rows are dropped before Spark
 * generates its own, so one process never holds both copies at once; with {@code dpopt.spark.side} the
 * two sides run in separate processes (settings: {@link SparkBenchOptions}; tables: {@link SparkBenchReport}).
 */
public final class SparkBenchSuite implements BenchSuite {

    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception {
        return run(out, SparkBenchOptions.of(quick), progress);
    }

    /** Runs the side(s) of o, keeps a single side's results in out, and writes the tables once both exist. */
    static Map<String, Object> run(Path out, SparkBenchOptions o, PrintWriter progress) throws Exception {
        SideResults mem = null;
        SideResults sp = null;
        if (o.side() != SparkBenchOptions.Side.SPARK) {
            mem = memorySide(o, progress);
            if (o.side() == SparkBenchOptions.Side.MEMORY) {
                mem.write(out);
                sp = SideResults.read(out, "spark");
            }
        }
        if (o.side() != SparkBenchOptions.Side.MEMORY) {
            sp = sparkSide(o, progress);
            if (o.side() == SparkBenchOptions.Side.SPARK) {
                sp.write(out);
                mem = SideResults.read(out, "memory");
            }
        }
        return SparkBenchReport.write(out, o, mem, sp, progress);
    }

    /** The in-memory side: generation, the epochs at every B, the full-gradient passes, peak memory. */
    static SideResults memorySide(SparkBenchOptions o, PrintWriter progress) {
        if (o.parts() == 0) {
            throw org.dpopt.linalg.Checks.fail("dpopt.spark.parts", "set (the Spark side's block count) for master "
                    + o.master(), 0);
        }
        progress.printf("spark bench, in-memory side: n=%d d=%d in %d blocks%n", o.n(), o.d(), o.parts());
        progress.flush();
        SideResults r = new SideResults("memory", o.n(), o.d(), o.parts());
        long t0 = System.nanoTime();
        Dataset data = SparkSynthetic.inMemory(o.n(), o.d(), o.parts(), 1);
        r.put("generate_s", "", (System.nanoTime() - t0) / 1e9);
        Problem problem = Problem.of(data, Losses.logistic());
        for (int b : o.batches()) {
            memoryEpoch(b, problem, r);
            progress.printf("B=%d T=%s: memory %.2f s, memory keyed %.2f s%n", b, r.text("steps", b),
                    r.get("memory_epoch_s", b), r.get("memory_planned_epoch_s", b));
            progress.flush();
        }
        GeneralizedLinearLoss loss = Losses.logistic();
        DMatrixRMaj w = start(o.d());
        DatasetPasses local = new DatasetPasses(data);
        for (int k = 0; k < o.reps(); k++) {
            r.put("full_gradient_memory_s", k, seconds(() -> local.meanGradient(loss, w, new DMatrixRMaj(o.d(), 1))));
        }
        finish(r, progress);
        return r;
    }

    /** One DP-SGD epoch at expected batch size b in memory: sequential Poisson and keyed plan, fastest of 3. */
    private static void memoryEpoch(int b, Problem problem, SideResults r) {
        NoisySgd seq = sgd(b);
        NoisySgd planned = seq.toBuilder().sampler(Samplers.byName("planned-poisson")).build();
        RunPlan seqPlan = seq.plan(problem.shape(), budget());
        RunPlan plan = planned.plan(problem.shape(), budget());
        double tm = Double.POSITIVE_INFINITY;
        double tp = Double.POSITIVE_INFINITY;
        for (int k = 0; k < 3; k++) {
            long seed = k;
            tm = Math.min(tm, seconds(() -> seq.run(problem, seqPlan, Rngs.seeded(seed))));
            tp = Math.min(tp, seconds(() -> planned.run(problem, plan, Rngs.seeded(seed))));
        }
        r.put("steps", b, steps(plan));
        r.put("memory_epoch_s", b, tm);
        r.put("memory_planned_epoch_s", b, tp);
    }

    /** The Spark side: generation on the executors, the epochs at every B, the passes, peak memory. */
    static SideResults sparkSide(SparkBenchOptions o, PrintWriter progress) {
        SparkEngine.quietTaskFailures();
        SparkSession spark = SparkEngine.session(o.master());
        int parts = o.parts() > 0 ? o.parts() : Math.max(2, SparkEngine.context(spark).defaultParallelism());
        progress.printf("spark bench, Spark side: n=%d d=%d master=%s in %d blocks%s%n", o.n(), o.d(),
                spark.sparkContext().master(), parts, o.byStep() ? "" : "; by-step layout skipped (it needs a "
                        + "second, shuffled copy of the rows; -Ddpopt.spark.bystep=on times it)");
        progress.flush();
        SideResults r = new SideResults("spark", o.n(), o.d(), parts);
        r.put("master", "", spark.sparkContext().master());
        long t0 = System.nanoTime();
        DistributedData dist = SparkSynthetic.distributed(spark, o.n(), o.d(), parts, 1);
        r.put("generate_s", "", (System.nanoTime() - t0) / 1e9);
        cached(spark, dist, r, progress);
        ProblemShape shape = dist.shape(Losses.logistic(), ConvexSets.unconstrained(), 0);
        for (int b : o.batches()) {
            sparkEpoch(b, dist, shape, o.byStep(), r);
            progress.printf("B=%d T=%s: spark %.2f s (plan %.2f s, %.1f ms/step in the task); by-step layout %s; "
                    + "driver-sampled Poisson %.2f s%n", b, r.text("steps", b), r.get("spark_epoch_s", b),
                    r.get("spark_plan_s", b), 1000 * r.get("spark_task_s", b) / r.get("steps", b),
                    o.byStep() ? String.format("%.2f s (plan %.2f s)", r.get("by_step_epoch_s", b),
                            r.get("by_step_plan_s", b)) : "skipped", r.get("driver_sampled_epoch_s", b));
            progress.flush();
        }
        sparkPasses(dist, o.reps(), r);
        finish(r, progress);
        dist.unpersist();
        return r;
    }

    /**
     * One DP-SGD epoch at expected batch size b on Spark: in place (the faster of two: the first warms the
     * JIT), by step (one run, if timed) and driver-sampled Poisson (the faster of two).
     */
    private static void sparkEpoch(int b, DistributedData dist, ProblemShape shape, boolean byStep, SideResults r) {
        NoisySgd seq = sgd(b);
        NoisySgd planned = seq.toBuilder().sampler(Samplers.byName("planned-poisson")).build();
        RunPlan seqPlan = seq.plan(shape, budget());
        RunPlan plan = planned.plan(shape, budget());
        SparkBatches warm = new SparkBatches(dist, Losses.logistic(), null);
        double tw = seconds(() -> planned.run(warm, shape, dist.rows(), plan, Rngs.seeded(4)));
        SparkBatches second = new SparkBatches(dist, Losses.logistic(), null);
        double ts = seconds(() -> planned.run(second, shape, dist.rows(), plan, Rngs.seeded(3)));
        SparkBatches fastest = tw < ts ? warm : second;
        r.put("steps", b, steps(plan));
        r.put("spark_epoch_s", b, Math.min(tw, ts));
        r.put("spark_plan_s", b, fastest.planSeconds());
        r.put("spark_task_s", b, fastest.taskSeconds());
        double tb = Double.NaN;
        double tbp = Double.NaN;
        if (byStep) {
            SparkBatches bs = new SparkBatches(dist, Losses.logistic(), null, SparkBatches.Layout.BY_STEP);
            tb = seconds(() -> planned.run(bs, shape, dist.rows(), plan, Rngs.seeded(3)));
            tbp = bs.planSeconds();
        }
        r.put("by_step_epoch_s", b, tb);
        r.put("by_step_plan_s", b, tbp);
        double td = Math.min(seconds(() -> seq.run(new SparkBatches(dist, Losses.logistic(), null), shape, dist.rows(),
                seqPlan, Rngs.seeded(3))), seconds(() -> seq.run(new SparkBatches(dist, Losses.logistic(), null), shape,
                        dist.rows(), seqPlan, Rngs.seeded(4))));
        r.put("driver_sampled_epoch_s", b, td);
    }

    /**
     * Spark's full-gradient passes by treeAggregate, the same pass that also returns k = min(n, 10⁴) drawn
     * rows (an SVRG anchor with the next epoch's rows) and a row fetch alone.
     */
    private static void sparkPasses(DistributedData dist, int reps, SideResults r) {
        long n = dist.rows();
        int d = dist.dimension();
        GeneralizedLinearLoss loss = Losses.logistic();
        DMatrixRMaj w = start(d);
        SparkPasses passes = new SparkPasses(dist);
        int k = (int) Math.min(n, 10_000);
        long[] ids = new long[k];
        var draws = Rngs.seeded(5);
        Arrays.setAll(ids, t -> draws.nextLong(n));
        r.put("svrg_rows", "", k);
        for (int q = 0; q < reps; q++) {
            r.put("full_gradient_spark_s", q, seconds(() -> passes.meanGradient(loss, w, new DMatrixRMaj(d, 1))));
            r.put("full_gradient_with_rows_s", q, seconds(() -> passes.meanGradientAndRows(loss, w,
                    new DMatrixRMaj(d, 1), ids, k)));
            r.put("rows_only_s", q, seconds(() -> passes.rows(ids, k)));
        }
    }

    /**
     * How the executors hold the benchmark's rows: bytes of the cached blocks in memory and on disk. Rows on
     * disk would make the Spark times disk times, so that is shouted.
     */
    private static void cached(SparkSession spark, DistributedData dist, SideResults r, PrintWriter progress) {
        long mem = 0;
        long disk = 0;
        // the storage info is read from the status store, which the listener bus fills asynchronously: wait
        // until the cached blocks' updates have arrived (read right after the caching job, some had not)
        try {
            spark.sparkContext().listenerBus().waitUntilEmpty(30_000L);
        } catch (java.util.concurrent.TimeoutException e) {
            progress.println("spark bench: Spark's listener bus did not drain in 30 s; the cache sizes below may be "
                    + "incomplete");
        }
        for (org.apache.spark.storage.RDDInfo info : spark.sparkContext().getRDDStorageInfo()) {
            if (info.id() == dist.blocks().id()) {
                mem += info.memSize();
                disk += info.diskSize();
            }
        }
        r.put("cache_memory_bytes", "", mem);
        r.put("cache_disk_bytes", "", disk);
        progress.printf("executors cache the rows: %.2f GB in memory, %.2f GB on disk%s%n", mem / 1e9, disk / 1e9,
                disk > 0 ? " -- NOT all in memory: Spark times below include disk reads; give the JVM more heap "
                        + "(-Xmx) or -Dspark.memory.fraction" : "");
        progress.flush();
    }

    /** The process figures of a side: pid, end time, peak memory so far. */
    private static void finish(SideResults r, PrintWriter progress) {
        Map<String, Long> m = PeakMemory.now();
        r.put("pid", "", ProcessHandle.current().pid());
        r.put("finished", "", Instant.now());
        m.forEach((k, v) -> r.put(k, "", v));
        progress.printf("%s side done: %s%n", r.side, PeakMemory.describe(m));
        progress.flush();
    }

    private static NoisySgd sgd(int b) {
        return NoisySgd.builder().batchSize(b).epochs(1).noiseMultiplier(1.0).accountant(new RdpAccountant()).build();
    }

    private static PrivacyBudget budget() {
        return PrivacyBudget.of(100, 1e-6);
    }

    private static long steps(RunPlan plan) {
        return plan.parameters().asMap().get("steps") instanceof Number s ? s.longValue() : 0;
    }

    private static DMatrixRMaj start(int d) {
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        Arrays.fill(w.data, 0.01);
        return w;
    }
}
