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
 * The distributed {@link BatchGradientSource} of DP-SGD: step t's clipped batch sum is computed by the
 * shared kernel ({@link ExactGradientOracle}, the same code on the same rows as in memory) over t's members
 * only, where the rows are, and returned to the driver, where the run core adds the noise. w travels with
 * the step's tasks (d doubles per task). Where the batches come from depends on the sampler:
 *
 * <ul>
 * <li>a sequential sampler (Poisson, truncated Poisson, deterministic, shuffles): drawn on the driver by
 * its own iterator on the run's generator, exactly as in memory ({@code DriverSampledPlan}) — in seeded
 * mode the run is the in-memory run;</li>
 * <li>a keyed sampler ({@code planned-…}): a plan built on the executors from a key drawn first from the
 * run's generator ({@link Layout}), the paper's massively parallel construction, with no driver state
 * proportional to n.</li>
 * </ul>
 * The plan key and the drawn batches never leave the driver except inside the tasks that use them.
 */
public final class SparkBatches implements BatchGradientSource {

    /**
     * Where a Poisson plan is stored: next to the rows with a step index ({@link #IN_PLACE}, the default:
     * no row moves, every core works on every step) or moved into partitions by step range
     * ({@link #BY_STEP}: one shuffle of the rows, then one task per step on one partition). Shuffle plans
     * are always stored by step (their ranks come from a global sort).
     */
    public enum Layout {
        /** Step index per block of rows; a step runs one task per block on its members only. */
        IN_PLACE,
        /** Rows shuffled into step ranges; a step runs one task on the partition holding its batch. */
        BY_STEP
    }

    /** What one step read (for tests and benchmarks; non-private). */
    public record StepStats(long step, int partitions, int batchesVisited, long rowsRead, double taskSeconds) {
    }

    private final DistributedData data;
    private final LossCodec loss;
    private final LongConsumer progress;
    private final Layout layout;
    private StoredPlan plan;
    private long steps;
    private StepStats last;
    private double planSeconds;
    private double taskSeconds;

    /**
     * @param progress called with the number of steps done after each step (e.g. a stderr line); may be null
     */
    public SparkBatches(DistributedData data, Loss loss, LongConsumer progress) {
        this(data, loss, progress, Layout.IN_PLACE);
    }

    /** As above, with a layout for Poisson plans. */
    public SparkBatches(DistributedData data, Loss loss, LongConsumer progress, Layout layout) {
        this.data = Checks.notNull("data", data);
        this.loss = LossCodec.of(loss);
        this.progress = progress;
        this.layout = Checks.notNull("layout", layout);
    }

    @Override
    public void open(BatchSampler sampler, int n, UniformRandomProvider rng) {
        long t0 = System.nanoTime();
        int parallel = SparkEngine.context(data.session()).defaultParallelism();
        if (sampler instanceof PlannedPoissonSampler ps) {
            BatchPlan bp = ps.plan(n, ps.drawKey(rng));
            plan = layout == Layout.IN_PLACE ? InPlacePlan.build(data, bp)
                    : SparkBatchPlan.build(data, bp, partitions(bp.samplingProbability() * bp.steps() * (double) n,
                            parallel));
        } else if (sampler instanceof PlannedShuffleSampler ss) {
            ShufflePlan sp = ss.plan(n, ss.drawKey(rng));
            plan = SparkBatchPlan.buildShuffle(data, sp, partitions((double) sp.epochs() * n, parallel));
        } else {
            plan = new DriverSampledPlan(data, sampler, n, rng);
        }
        steps = plan.steps();
        planSeconds = (System.nanoTime() - t0) / 1e9;
    }


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

    @Override
    public BatchSum addBatch(long step, DMatrixRMaj w, double clip, DMatrixRMaj out) {
        if (plan == null) {
            throw new IllegalStateException("open() was not called");
        }
        if (step < 0 || step >= steps) {
            throw Checks.fail("step", "in [0, " + steps + ")", step);
        }
        int d = loss.loss().parameterDimension(data.dimension());
        Checks.vector("w", w, d);
        List<StepSum> parts = plan.sum(step, w.data.clone(), clip, loss, d);
        int rows = 0;
        int clipped = 0;
        int visited = 0;
        long nanos = 0;
        for (StepSum r : parts) { // in partition order
            for (int j = 0; j < d; j++) {
                out.data[j] += r.sum[j];
            }
            rows += r.rows;
            clipped += r.clipped;
            visited += r.visited;
            nanos = Math.max(nanos, r.nanos);
        }
        last = new StepStats(step, parts.size(), visited, rows, nanos / 1e9);
        taskSeconds += nanos / 1e9;
        if (progress != null) {
            progress.accept(step + 1);
        }
        if (step == steps - 1) {
            plan.unpersist();
        }
        return new BatchSum(rows, clipped);
    }

    @Override
    public double empiricalRisk(DMatrixRMaj w) {
        int d = loss.loss().parameterDimension(data.dimension());
        Checks.vector("w", w, d);
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
        return plan.members();
    }

    /** The number of partitions of the stored plan. */
    public int planPartitions() {
        return plan.partitions();
    }

    /** The plan's batch sizes are not released: this keeps them out of string forms. */
    @Override
    public String toString() {
        return "SparkBatches[" + data.source() + "]";
    }

}
