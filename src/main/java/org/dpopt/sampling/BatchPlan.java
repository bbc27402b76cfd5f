package org.dpopt.sampling;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpopt.linalg.Checks;

/**
 * The massively parallel construction of truncated Poisson batches (Chua et al., "Scalable DP-SGD:
 * Shuffling vs. Poisson Subsampling", NeurIPS 2024, arXiv:2411.04205, Fig. 2 / Appendix A), written
 * as pure functions of (seed, key) so that each stage can run as a Map or Reduce over a cluster
 * (e.g. Spark) and give the same batches as this in-memory driver:
 *
 * <ol>
 *   <li><b>Map</b> over examples ({@link #batchesOf}): example i draws k ~ Binomial(T, q) and then k
 *       distinct batch indices uniformly from [0, T) — the same joint law as T independent
 *       Bernoulli(q) trials, at O(k) cost instead of O(T); emits (batch, i) pairs with weight 1.</li>
 *   <li><b>Reduce</b>: group the pairs by batch index ({@link #materialize} does this in memory).</li>
 *   <li><b>Map</b> over batches ({@link #truncateAndPad}): more than B members → a uniformly random
 *       subset of exactly B; fewer → padded with weight-0 dummy slots, so every batch has B rows.</li>
 * </ol>
 *
 * The randomness of stage 1 for example i comes only from (seed, i) and that of stage 3 for batch t
 * only from (seed, t), so the result does not depend on partitioning or processing order. The
 * output is ABLQ with truncated Poisson batches, accounted by {@link TruncatedPoissonSampler}'s event.
 *
 * @param n public dataset size
 * @param samplingProbability q = b/n
 * @param steps T
 * @param maxBatchSize B
 * @param seed the run's secret seed (draw it from a secure source for a real release)
 */
public record BatchPlan(int n, double samplingProbability, long steps, int maxBatchSize, long seed) {

    private static final long MAP_SALT = 0x6d61705f73616c74L;
    private static final long TRUNCATE_SALT = 0x7472756e63617465L;

    /** Validates. */
    public BatchPlan {
        Checks.atLeastOne("n", n);
        Checks.probability("samplingProbability", samplingProbability);
        Checks.atLeastOne("steps", steps);
        Checks.atLeastOne("maxBatchSize", maxBatchSize);
    }

    /** One batch after stage 3: exactly B slots, weight 1 for members and 0 for padding. */
    public record Batch(long index, int[] rows, double[] weights) {
    }

    private UniformRandomProvider rng(long salt, long key) {
        return RandomSource.XO_RO_SHI_RO_128_PP.create(new long[] {seed ^ salt, key * 0x9E3779B97F4A7C15L + salt});
    }

    /** Stage 1 (Map): the sorted batch indices example {@code i} belongs to. Pure in (seed, i). */
    public long[] batchesOf(int i) {
        if (i < 0 || i >= n) {
            throw Checks.fail("i", "in [0, " + n + ")", i);
        }
        UniformRandomProvider r = rng(MAP_SALT, i);
        int k = binomial(r, steps, samplingProbability);
        return distinctSorted(r, steps, k);
    }

    /** k ~ Binomial(T, q) by inversion of the CDF at one uniform draw (pure in the draw). */
    static int binomial(UniformRandomProvider r, long t, double q) {
        if (t > Integer.MAX_VALUE) {
            throw Checks.fail("steps", "at most " + Integer.MAX_VALUE, t);
        }
        if (q == 1) {
            return (int) t;
        }
        double u = r.nextDouble();
        return new BinomialDistribution(null, (int) t, q).inverseCumulativeProbability(u);
    }

    /** k distinct values from [0, T) uniformly (Floyd's algorithm), sorted. */
    static long[] distinctSorted(UniformRandomProvider r, long t, int k) {
        java.util.TreeSet<Long> chosen = new java.util.TreeSet<>();
        for (long j = t - k; j < t; j++) {
            long v = r.nextLong(j + 1);
            if (!chosen.add(v)) {
                chosen.add(j);
            }
        }
        long[] out = new long[k];
        int a = 0;
        for (long v : chosen) {
            out[a++] = v;
        }
        return out;
    }

    /**
     * Stage 3 (Map over a grouped batch): truncation to a uniformly random B-subset and padding with
     * weight-0 slots (index 0). Pure in (seed, batch index, members as a set).
     *
     * @param members the examples grouped into this batch, in increasing order
     */
    public Batch truncateAndPad(long batchIndex, int[] members) {
        if (batchIndex < 0 || batchIndex >= steps) {
            throw Checks.fail("batchIndex", "in [0, " + steps + ")", batchIndex);
        }
        int[] m = members.clone();
        int k = m.length;
        int cap = maxBatchSize;
        if (k > cap) {
            UniformRandomProvider r = rng(TRUNCATE_SALT, batchIndex);
            for (int a = 0; a < cap; a++) {
                int j = a + r.nextInt(k - a);
                int tmp = m[a];
                m[a] = m[j];
                m[j] = tmp;
            }
            k = cap;
        }
        int[] rows = new int[cap];
        double[] w = new double[cap];
        for (int a = 0; a < k; a++) {
            rows[a] = m[a];
            w[a] = 1;
        }
        return new Batch(batchIndex, rows, w);
    }

    /** The in-memory driver: stage 1 for every example, group by batch, stage 3 for every batch. */
    public List<Batch> materialize() {
        if (steps > Integer.MAX_VALUE) {
            throw Checks.fail("steps", "at most " + Integer.MAX_VALUE + " for the in-memory driver", steps);
        }
        int t = (int) steps;
        int[] counts = new int[t];
        long[][] memberships = new long[n][];
        for (int i = 0; i < n; i++) {
            memberships[i] = batchesOf(i);
            for (long b : memberships[i]) {
                counts[(int) b]++;
            }
        }
        int[][] grouped = new int[t][];
        for (int b = 0; b < t; b++) {
            grouped[b] = new int[counts[b]];
            counts[b] = 0;
        }
        for (int i = 0; i < n; i++) { // increasing i: members come out sorted
            for (long b : memberships[i]) {
                grouped[(int) b][counts[(int) b]++] = i;
            }
        }
        List<Batch> out = new ArrayList<>(t);
        for (int b = 0; b < t; b++) {
            out.add(truncateAndPad(b, grouped[b]));
        }
        return out;
    }
}
