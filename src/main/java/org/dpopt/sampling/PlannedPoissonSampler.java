package org.dpopt.sampling;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.linalg.Checks;

/**
 * Poisson or truncated Poisson sampling whose batches come from a keyed per-record {@link BatchPlan}
 * instead of a sequential generator: the sampler the distributed engine runs, offered in memory too,
 * so that the same key gives the same batches on one machine and on a cluster.
 *
 * <p>Law and accounting: the batches have the law of {@link PoissonSampler} (B = none) or of
 * {@link TruncatedPoissonSampler} (B given), up to the pseudorandom-function assumption of the key's
 * AES stream (theory-notes/distributed.md), so this sampler states exactly their events and relations:
 * {@code SelfComposed(PoissonSampled(q, Gaussian(z)), T)} under add/remove-one, or
 * {@code SelfComposed(TruncatedPoisson(q, n, B, Gaussian(z)), T)} under zero-out.
 *
 * <p>A run draws the plan key as the first two words of its generator ({@link #drawKey}); from the
 * secure generator for a private release. The in-memory iterator materializes the plan: O(n + qnT)
 * memory. Truncation ranks records by their position in [0, n), so the truncated variant needs n to be
 * the exact number of rows.
 *
 * @param expectedBatchSize b
 * @param steps T
 * @param maxBatchSize B, or 0 for plain (untruncated) Poisson
 */
public record PlannedPoissonSampler(double expectedBatchSize, long steps, int maxBatchSize) implements KeyedSampler {

    /** Validates. */
    public PlannedPoissonSampler {
        Checks.positive("expectedBatchSize", expectedBatchSize);
        Checks.atLeastOne("steps", steps);
        if (maxBatchSize < 0) {
            throw Checks.fail("maxBatchSize", "positive (or 0 for no truncation)", maxBatchSize);
        }
    }

    /** The planned form of a Poisson sampler (same b, T). */
    public static PlannedPoissonSampler of(PoissonSampler s) {
        return new PlannedPoissonSampler(s.expectedBatchSize(), s.steps(), 0);
    }

    /** The planned form of a truncated Poisson sampler (same b, B, T). */
    public static PlannedPoissonSampler of(TruncatedPoissonSampler s) {
        return new PlannedPoissonSampler(s.expectedBatchSize(), s.steps(), s.maxBatchSize());
    }

    @Override
    public BatchSampler direct() {
        return maxBatchSize == 0 ? new PoissonSampler(expectedBatchSize, steps)
                : new TruncatedPoissonSampler(expectedBatchSize, maxBatchSize, steps);
    }

    /** True for the truncated variant. */
    public boolean truncated() {
        return maxBatchSize > 0;
    }

    @Override
    public String name() {
        return truncated() ? "planned-truncated-poisson" : "planned-poisson";
    }

    /** q = b/n. */
    public double samplingProbability(int n) {
        return PoissonBatchSampler.inclusionProbability(expectedBatchSize, n);
    }

    @Override
    public boolean requiresExactSize() {
        return truncated();
    }

    /** The plan for public size n under a key (what every engine builds its batches from). */
    public BatchPlan plan(int n, PlanKey key) {
        direct().maxBatchSlots(n); // refuses b > n and B > n
        return new BatchPlan(n, samplingProbability(n), steps, truncated() ? maxBatchSize : BatchPlan.NO_TRUNCATION,
                key);
    }

    /**
     * Draws the key from rng and materializes the plan; each call of {@code next} writes a step's kept
     * members (increasing) with weight 1 and, for the truncated variant, pads to B slots with index 0 and
     * weight 0.
     */
    @Override
    public BatchIterator iterator(int n, UniformRandomProvider rng) {
        Checks.notNull("rng", rng);
        return new MaterializedBatches(plan(n, drawKey(rng)).materialize(), truncated() ? maxBatchSize : 0);
    }
}
