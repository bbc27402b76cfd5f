package org.dpopt.sampling;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.TruncatedPoissonEvent;
import org.dpopt.linalg.Checks;

/**
 * Truncated Poisson sampling 𝒫_{b,B,T} (Chua et al., "Scalable DP-SGD: Shuffling vs. Poisson
 * Subsampling", NeurIPS 2024, arXiv:2411.04205, Algorithm 4): each step draws a Poisson batch with
 * q = b/n; if it has more than B records a uniformly random subset of exactly B is kept; the batch
 * is then padded to exactly B slots with weight-0 entries (index 0, weight 0), so every step has the
 * same shape. The normalizer is the public expected size b (as for Poisson; the padding changes
 * nothing because padded slots have weight 0; dividing by B instead would only shrink the step by
 * b/B ≈ 1 − c/√b).
 *
 * <p>Privacy event: {@code SelfComposed(TruncatedPoisson(q, n, B, Gaussian(z)), T)} under zero-out
 * (n public): the Poisson curve plus (1 + e^ε)(1 − (1 − r_B)^T), r_B = Pr[Bin(n, q) &gt; B].
 *
 * @param expectedBatchSize b
 * @param maxBatchSize B
 * @param steps T
 */
public record TruncatedPoissonSampler(double expectedBatchSize, int maxBatchSize, long steps)
        implements PoissonBatchSampler {

    /** Validates. */
    public TruncatedPoissonSampler {
        Checks.positive("expectedBatchSize", expectedBatchSize);
        Checks.atLeastOne("maxBatchSize", maxBatchSize);
        Checks.atLeastOne("steps", steps);
    }

    /** B = b + ⌈c·√b⌉ (capped at n) and T = ⌈E·n/b⌉: with c = 8 the overflow chance per batch is ~1e-15. */
    public static TruncatedPoissonSampler epochs(double expectedBatchSize, double epochs, int n, double c) {
        long steps = Samplers.epochSteps(epochs, n, expectedBatchSize);
        Checks.nonNegative("c", c);
        int bigB = (int) Math.min(n, Math.ceil(expectedBatchSize + c * Math.sqrt(expectedBatchSize)));
        return new TruncatedPoissonSampler(expectedBatchSize, Math.max(1, bigB), steps);
    }

    @Override
    public String name() {
        return "truncated-poisson";
    }

    /** q = b/n. */
    public double samplingProbability(int n) {
        double q = PoissonBatchSampler.inclusionProbability(expectedBatchSize, n);
        if (maxBatchSize > n) {
            throw Checks.fail("maxBatchSize", "at most the dataset size " + n, maxBatchSize);
        }
        return q;
    }

    @Override
    public int maxBatchSlots(int n) {
        samplingProbability(n);
        return maxBatchSize;
    }

    @Override
    public BatchIterator iterator(int n, UniformRandomProvider rng) {
        samplingProbability(n);
        Checks.notNull("rng", rng);
        // the untruncated draw, in slots sized from b and B (grown on the rare larger draw)
        BatchSlots draw = new BatchSlots(Math.max(maxBatchSize, BatchSlots.poissonCapacity(expectedBatchSize, n)));
        BatchIterator poisson = new PoissonSampler(expectedBatchSize, steps).iterator(n, rng);
        int cap = maxBatchSize;
        return (idx, w) -> {
            int k = poisson.next(draw);
            int[] scratch = draw.indices();
            if (k > cap) {
                // uniformly random subset of size B: the first B positions of a partial Fisher–Yates
                for (int a = 0; a < cap; a++) {
                    int j = a + rng.nextInt(k - a);
                    int t = scratch[a];
                    scratch[a] = scratch[j];
                    scratch[j] = t;
                }
                k = cap;
            }
            for (int a = 0; a < k; a++) {
                idx[a] = scratch[a];
                w[a] = 1;
            }
            for (int a = k; a < cap; a++) {
                idx[a] = 0;
                w[a] = 0;
            }
            return cap;
        };
    }

    @Override
    public DpEvent stepEvent(int n, double noiseMultiplier) {
        return new TruncatedPoissonEvent(samplingProbability(n), n, maxBatchSize, new GaussianEvent(noiseMultiplier));
    }

    @Override
    public NeighboringRelation relation() {
        return NeighboringRelation.ZERO_OUT;
    }
}
