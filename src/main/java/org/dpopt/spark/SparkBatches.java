package org.dpopt.spark;

import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.spark.api.java.JavaRDD;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.oracle.BatchGradientSource;
import org.dpopt.oracle.ExactGradientOracle;
import org.dpopt.sampling.BatchPlan;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.PlannedPoissonSampler;
import org.dpopt.sampling.PlannedShuffleSampler;
import org.dpopt.sampling.ShufflePlan;
import org.ejml.data.DMatrixRMaj;
import scala.Tuple2;

/**
 * The distributed {@link BatchGradientSource} of DP-SGD. {@link #open} draws the plan key from the run's
 * generator (first two words, as the in-memory {@link PlannedPoissonSampler} does) and builds the
 * {@link SparkBatchPlan} on the executors; step t then runs one task on the one partition holding t's
 * batch: it finds the batch, runs the shared clip-and-sum kernel ({@link ExactGradientOracle}, the same
 * code, rows and order as in memory) and returns the d-vector sum to the driver, where the run core adds
 * the noise. w travels with the task (d doubles).
 *
 * <p>Only keyed samplers can run here ({@code planned-poisson}, {@code planned-truncated-poisson}); the
 * plan key never leaves the driver except inside the tasks that evaluate the plan.
 */
public final class SparkBatches implements BatchGradientSource {

    /** What one step read (for tests and benchmarks; non-private). */
    public record StepStats(long step, int partitions, int batchesVisited, long rowsRead, double taskSeconds) {
    }

    private final DistributedData data;
    private final LossCodec loss;
    private final LongConsumer progress;
    private SparkBatchPlan plan;
    private long steps;
    private StepStats last;
    private double planSeconds;
    private double taskSeconds;

    /**
     * @param progress called with the number of steps done after each step (e.g. a stderr line); may be null
     */
    public SparkBatches(DistributedData data, Loss loss, LongConsumer progress) {
        this.data = Checks.notNull("data", data);
        this.loss = LossCodec.of(loss);
        this.progress = progress;
    }

    @Override
    public void open(BatchSampler sampler, int n, UniformRandomProvider rng) {
        long t0 = System.nanoTime();
        int parallel = SparkEngine.context(data.session()).defaultParallelism();
        if (sampler instanceof PlannedPoissonSampler ps) {
            BatchPlan bp = ps.plan(n, ps.drawKey(rng));
            plan = SparkBatchPlan.build(data, bp, partitions(bp.samplingProbability() * bp.steps() * (double) n,
                    parallel));
        } else if (sampler instanceof PlannedShuffleSampler ss) {
            ShufflePlan sp = ss.plan(n, ss.drawKey(rng));
            plan = SparkBatchPlan.buildShuffle(data, sp, partitions((double) sp.epochs() * n, parallel));
        } else {
            throw Checks.fail("sampler on Spark", "one of " + SAMPLERS + " (keyed per-record batches)",
                    sampler.name());
        }
        steps = plan.steps();
        planSeconds = (System.nanoTime() - t0) / 1e9;
    }

    /** The samplers this source runs. */
    public static final List<String> SAMPLERS = List.of("planned-poisson", "planned-truncated-poisson",
            "planned-shuffle-persistent", "planned-shuffle-dynamic");

    /** P: at least two step ranges per core, and about 32 MiB of rows per range. */
    private int partitions(double members, int parallel) {
        double bytes = members * (data.dimension() + 2) * 8;
        return (int) Math.max(2L * parallel, Math.min(Integer.MAX_VALUE, (long) Math.ceil(bytes / (32.0 * (1 << 20)))));
    }

    /** Seconds the last {@link #open} took to build and cache the plan (benchmarks). */
    public double planSeconds() {
        return planSeconds;
    }

    /** Seconds spent inside the step tasks so far (the rest of a step's time is scheduling and transfer). */
    public double taskSeconds() {
        return taskSeconds;
    }

    /** What the last step read. */
    public StepStats lastStep() {
        return last;
    }

    /** One step's result on its executor. */
    private static final class Partial implements Serializable {
        private static final long serialVersionUID = 1L;
        final double[] sum;
        final int rows;
        final int clipped;
        final int visited;
        final long nanos;

        Partial(double[] sum, int rows, int clipped, int visited, long nanos) {
            this.sum = sum;
            this.rows = rows;
            this.clipped = clipped;
            this.visited = visited;
            this.nanos = nanos;
        }
    }

    @Override
    public BatchSum addBatch(long step, DMatrixRMaj w, double clip, DMatrixRMaj out) {
        if (plan == null) {
            throw new IllegalStateException("open() was not called");
        }
        if (step < 0 || step >= steps) {
            throw Checks.fail("step", "in [0, " + steps + ")", step);
        }
        int d = data.dimension();
        double[] ws = w.data.clone();
        LossCodec codec = loss;
        int p = plan.partitionOf(step);
        JavaRDD<Partial> job = plan.batches().mapPartitions(it -> {
            long t0 = System.nanoTime();
            int visited = 0;
            while (it.hasNext()) {
                StepBatch b = it.next();
                visited++;
                if (b.step == step) {
                    Dataset ds = b.dataset();
                    int k = ds.size();
                    int[] idx = new int[k];
                    for (int a = 0; a < k; a++) {
                        idx[a] = a;
                    }
                    DMatrixRMaj sum = new DMatrixRMaj(d, 1);
                    int clipped = new ExactGradientOracle(codec.loss(), Double.POSITIVE_INFINITY).addClippedBatch(
                            DMatrixRMaj.wrap(d, 1, ws), ds, idx, 0, k, null, clip, sum, new DMatrixRMaj(d, 1));
                    return List.of(new Partial(sum.data, k, clipped, visited, System.nanoTime() - t0)).iterator();
                }
            }
            return List.of(new Partial(new double[d], 0, 0, visited, System.nanoTime() - t0)).iterator();
        }, true);
        List<Partial>[] res = SparkEngine.call(() -> job.collectPartitions(new int[] {p}));
        Partial r = res[0].get(0);
        for (int j = 0; j < d; j++) {
            out.data[j] += r.sum[j];
        }
        last = new StepStats(step, res.length, r.visited, r.rows, r.nanos / 1e9);
        taskSeconds += r.nanos / 1e9;
        if (progress != null) {
            progress.accept(step + 1);
        }
        if (step == steps - 1) {
            plan.unpersist();
        }
        return new BatchSum(r.rows, r.clipped);
    }

    @Override
    public double empiricalRisk(DMatrixRMaj w) {
        int d = data.dimension();
        double[] ws = w.data.clone();
        LossCodec codec = loss;
        double total = SparkEngine.call(() -> data.blocks().map(b -> {
            Dataset ds = b.dataset();
            DMatrixRMaj wm = DMatrixRMaj.wrap(d, 1, ws);
            double s = 0;
            for (int a = 0; a < ds.size(); a++) {
                s += codec.loss().value(wm, ds, a);
            }
            return s;
        }).fold(0.0, Double::sum));
        return total / data.rows();
    }

    /**
     * Every step's kept member ids (collected to the driver: tests and small plans only). Steps with no
     * member are absent.
     */
    public Map<Long, long[]> members() {
        Map<Long, long[]> out = new HashMap<>();
        for (Tuple2<Long, long[]> t : plan.batches().map(b -> new Tuple2<>(b.step, b.ids)).collect()) {
            out.put(t._1(), t._2());
        }
        return out;
    }

    /** The number of partitions of the stored plan. */
    public int planPartitions() {
        return plan.batches().getNumPartitions();
    }

    /** The plan's batch sizes are not released: this keeps them out of string forms. */
    @Override
    public String toString() {
        return "SparkBatches[" + data.source() + "]";
    }

}
