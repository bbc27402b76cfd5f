package org.dpopt.sampling;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.linalg.Checks;

/**
 * Persistent or dynamic shuffling whose permutations come from keyed sort keys ({@link ShufflePlan})
 * instead of a sequential Fisher–Yates shuffle: the form the distributed engine runs (a sort by random
 * keys), offered in memory too, so that the same key gives the same batches. Same law (a uniformly
 * random permutation per epoch, or one for all epochs) and therefore exactly the events and relation of
 * {@link FixedSizeBatchSampler#persistentShuffle} / {@link FixedSizeBatchSampler#dynamicShuffle}. Requires
 * b | n and n the exact number of rows. A run draws the key as the first two words of its generator.
 *
 * @param batchSize b
 * @param epochs E
 * @param persistent one permutation for all epochs
 */
public record PlannedShuffleSampler(int batchSize, int epochs, boolean persistent) implements KeyedSampler {

    /** Validates. */
    public PlannedShuffleSampler {
        Checks.atLeastOne("batchSize", batchSize);
        Checks.atLeastOne("epochs", epochs);
    }

    @Override
    public BatchSampler direct() {
        return persistent ? FixedSizeBatchSampler.persistentShuffle(batchSize, epochs) : FixedSizeBatchSampler.dynamicShuffle(batchSize, epochs);
    }

    @Override
    public String name() {
        return persistent ? "planned-shuffle-persistent" : "planned-shuffle-dynamic";
    }

    /** The plan for n records under a key. */
    public ShufflePlan plan(int n, PlanKey key) {
        return new ShufflePlan(n, batchSize, epochs, persistent, key);
    }

    /** Draws the key, materializes the plan, then yields each step's b members (increasing), weight 1. */
    @Override
    public BatchIterator iterator(int n, UniformRandomProvider rng) {
        Checks.notNull("rng", rng);
        return new MaterializedBatches(plan(n, drawKey(rng)).materialize(), 0);
    }
}
