package org.dpopt.spark;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.spark.api.java.JavaRDD;
import org.dpopt.oracle.BatchBuffers;
import org.dpopt.oracle.ExactGradientOracle;
import org.dpopt.sampling.BatchSampler;
import org.ejml.data.DMatrixRMaj;

/**
 * Batches drawn on the driver by the in-memory sampler itself — its iterator, on the run's generator, in
 * the same order as in memory (so in seeded mode the batches and every noise draw are those of the
 * in-memory run) — and summed where the rows are: step t ships its sorted member ids (≤ B ints) with its
 * tasks, and each block runs the shared kernel on its own members, found by binary search among its
 * consecutive ids. O(B) rows read per step, no plan to build, any sampler. The driver holds the
 * sampler's state: O(slots) memory (n for Poisson, whose batches are not bounded; a permutation of n for
 * shuffles), which is what bounds this mode to data sizes whose indices fit on the driver; the keyed plans
 * have no such bound.
 */
final class DriverSampledPlan implements StoredPlan {
    private final DistributedData data;
    private final BatchSampler.BatchIterator it;
    private final long steps;
    private final int[] idx;
    private final double[] weights;

    DriverSampledPlan(DistributedData data, BatchSampler sampler, int n, UniformRandomProvider rng) {
        this.data = data;
        this.steps = sampler.steps(n);
        this.idx = new int[sampler.maxBatchSlots(n)];
        this.weights = new double[idx.length];
        this.it = sampler.iterator(n, rng);
    }

    @Override
    public long steps() {
        return steps;
    }

    /** Draws step t's batch (the next one) and sums it on the blocks. */
    @Override
    public List<StepSum> sum(long step, double[] ws, double clip, LossCodec codec, int d) {
        int k = it.next(idx, weights);
        long[] ids = new long[k];
        int m = 0;
        for (int a = 0; a < k; a++) {
            if (weights[a] != 0) {
                ids[m++] = idx[a];
            }
        }
        long[] members = Arrays.copyOf(ids, m);
        Arrays.sort(members);
        JavaRDD<StepSum> job = data.blocks().map(b -> {
            long t0 = System.nanoTime();
            int lo = lowerBound(members, b.firstId);
            int hi = lowerBound(members, b.firstId + b.rows);
            int[] local = new int[hi - lo];
            for (int a = lo; a < hi; a++) {
                local[a - lo] = (int) (members[a] - b.firstId);
            }
            DMatrixRMaj sum = new DMatrixRMaj(d, 1);
            int clipped = local.length == 0 ? 0 : new ExactGradientOracle(codec.loss(), Double.POSITIVE_INFINITY)
                    .addClippedBatch(DMatrixRMaj.wrap(d, 1, ws), b.dataset(), local, 0, local.length, null, clip, sum,
                            new DMatrixRMaj(d, 1), BatchBuffers.of(local.length));
            return new StepSum(sum.data, local.length, clipped, 1, System.nanoTime() - t0);
        });
        return SparkEngine.call(job::collect);
    }

    /** The number of entries of the sorted array below v. */
    private static int lowerBound(long[] sorted, long v) {
        int k = Arrays.binarySearch(sorted, v);
        while (k > 0 && sorted[k - 1] == v) {
            k--;
        }
        return k >= 0 ? k : -k - 1;
    }

    /** Not available: the batches are drawn one step at a time. */
    @Override
    public Map<Long, long[]> members() {
        throw new UnsupportedOperationException("a driver-sampled plan draws its batches one step at a time");
    }

    @Override
    public int partitions() {
        return data.blocks().getNumPartitions();
    }

    @Override
    public void unpersist() {
        // nothing cached
    }
}
