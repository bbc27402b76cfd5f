package org.dpopt.oracle;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Problem;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.BatchSlots;
import org.ejml.data.DMatrixRMaj;

/**
 * The in-memory {@link BatchGradientSource}: the sampler's iterator over the rows of a {@link Dataset}
 * and the clip-and-sum kernel of the loss's per-run oracle ({@link SmoothedLoss#runOracle}: the exact
 * gradient with the GLL fast path, or a smoothed loss's own oracle). One per run; the index, weight and
 * chunk buffers are allocated in {@link #open}, sized from the sampler's public starting capacity
 * (about b + 8√b slots for Poisson batches of expected size b, not n), and the slots grow only on a rare
 * batch that does not fit.
 */
public final class DatasetBatches implements BatchGradientSource {
    private final Dataset data;
    private final Loss loss;
    private final GradientOracle oracle;
    private final DMatrixRMaj scratch;
    private BatchSampler.BatchIterator it;
    private BatchSlots slots;
    private BatchBuffers buffers;
    private final BatchSum counts = new BatchSum(0, 0);
    private long next;

    /** Batches of the rows of data under loss. */
    public DatasetBatches(Dataset data, Loss loss) {
        this.data = Checks.notNull("data", data);
        this.loss = Checks.notNull("loss", loss);
        this.oracle = SmoothedLoss.runOracle(loss, loss.parameterDimension(data.dimension()), data.rowNormBound());
        this.scratch = new DMatrixRMaj(loss.parameterDimension(data.dimension()), 1);
    }

    @Override
    public void open(BatchSampler sampler, int n, UniformRandomProvider rng) {
        slots = new BatchSlots(sampler.initialBatchSlots(n));
        buffers = BatchBuffers.of(slots.capacity());
        it = sampler.iterator(n, rng);
        next = 0;
    }

    @Override
    public BatchSum addBatch(long step, DMatrixRMaj w, double clip, DMatrixRMaj out) {
        if (it == null) {
            throw new IllegalStateException("open() was not called");
        }
        if (step != next) {
            throw Checks.fail("step", "the next step " + next, step);
        }
        next++;
        int k = it.next(slots);
        int[] idx = slots.indices();
        double[] weights = slots.weights();
        int clipped = oracle.addClippedBatch(w, data, idx, 0, k, weights, clip, out, scratch, buffers);
        return counts.set(realCount(idx, weights, k), clipped);
    }

    private int realCount(int[] idx, double[] weights, int k) {
        int rows = data.size();
        int real = 0;
        for (int a = 0; a < k; a++) {
            if (weights[a] != 0 && idx[a] < rows) {
                real++;
            }
        }
        return real;
    }

    @Override
    public double empiricalRisk(DMatrixRMaj w) {
        return Problem.of(data, loss).empiricalRisk(w);
    }
}
