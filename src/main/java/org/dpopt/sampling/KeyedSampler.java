package org.dpopt.sampling;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;

/**
 * A sampler whose batches are pure functions of a secret {@link PlanKey} and record ids, so that any
 * engine (in memory, Spark) computes the same batches; it has the law of a sequential sampler
 * ({@link #direct()}) and states exactly that sampler's events, relation, step count and normalizer
 * (theory-notes/distributed.md).
 */
public sealed interface KeyedSampler extends BatchSampler permits PlannedPoissonSampler, PlannedShuffleSampler {

    /** The sequential sampler with the same law and events. */
    BatchSampler direct();

    /** The plan key a run with generator rng uses: its first two words (drawn before any noise). */
    default PlanKey drawKey(UniformRandomProvider rng) {
        return PlanKey.draw(rng);
    }

    @Override
    default long steps(int n) {
        return direct().steps(n);
    }

    @Override
    default double normalizer(int n) {
        return direct().normalizer(n);
    }

    @Override
    default int maxBatchSlots(int n) {
        return direct().maxBatchSlots(n);
    }

    /** The direct sampler's starting capacity (the materialized iterators grow the slots as needed). */
    @Override
    default int initialBatchSlots(int n) {
        return direct().initialBatchSlots(n);
    }

    @Override
    default DpEvent stepEvent(int n, double noiseMultiplier) {
        return direct().stepEvent(n, noiseMultiplier);
    }

    @Override
    default DpEvent privacyEvent(int n, double noiseMultiplier) {
        return direct().privacyEvent(n, noiseMultiplier);
    }

    @Override
    default NeighboringRelation relation() {
        return direct().relation();
    }
}
