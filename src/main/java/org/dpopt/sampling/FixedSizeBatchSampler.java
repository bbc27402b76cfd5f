package org.dpopt.sampling;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.AblqStepEvent;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;

/**
 * What the three fixed-size samplers of Chua et al. 2024, Algorithm 3 (deterministic, persistent shuffle,
 * dynamic shuffle) have in common: E epochs of S = n/b batches of exactly b records (b | n), so
 * T = E·n/b, normalizer b, b slots per batch, zero-out relation. They differ only in their
 * {@link #batchOrder()}, which fixes both when the record order is drawn and the tag of their step event.
 */
sealed interface FixedSizeBatchSampler extends BatchSampler
        permits DeterministicSampler, PersistentShuffleSampler, DynamicShuffleSampler {

    /** b. */
    int batchSize();

    /** E. */
    int epochs();

    /** The record order: identity, one permutation for all epochs, or a fresh one every epoch. */
    AblqStepEvent.BatchOrder batchOrder();

    @Override
    default BatchIterator iterator(int n, UniformRandomProvider rng) {
        return FixedPartition.iterator(n, batchSize(), rng, batchOrder());
    }

    @Override
    default DpEvent stepEvent(int n, double noiseMultiplier) {
        return new AblqStepEvent(batchOrder(), noiseMultiplier, FixedPartition.stepsPerEpoch(n, batchSize()));
    }

    @Override
    default long steps(int n) {
        return (long) FixedPartition.stepsPerEpoch(n, batchSize()) * epochs();
    }

    @Override
    default double normalizer(int n) {
        return batchSize();
    }

    @Override
    default int maxBatchSlots(int n) {
        FixedPartition.stepsPerEpoch(n, batchSize());
        return batchSize();
    }

    @Override
    default NeighboringRelation relation() {
        return NeighboringRelation.ZERO_OUT;
    }
}
