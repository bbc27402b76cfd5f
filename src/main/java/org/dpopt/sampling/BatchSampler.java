package org.dpopt.sampling;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.accounting.NeighboringRelation;

/**
 * A rule for choosing the batches S_1, …, S_T ⊆ [n] of an adaptive batch linear query mechanism
 * (ABLQ, Chua et al. 2024 §5.1): DP-SGD is post-processing of the T noisy batch sums.
 *
 * <p>A sampler <em>states its own privacy event</em> ({@link #privacyEvent}), so that an optimizer
 * cannot be run with one sampler and accounted with another. Step count and normalizer depend only
 * on the public n and the configuration, never on the data.
 */
public interface BatchSampler {

    /** Short name used by the CLI, e.g. {@code "poisson"}. */
    String name();

    /** T, the number of batches for a dataset of public size n. */
    long steps(int n);

    /**
     * The public constant b̄ that batch sums are divided by (expected batch size for Poisson, padded
     * size for truncated Poisson, b for fixed-size batches). Never the realized batch size.
     */
    double normalizer(int n);

    /** An upper bound on the number of slots {@link BatchIterator#next} fills, for buffer sizing. */
    int maxBatchSlots(int n);

    /**
     * The public starting capacity of the {@link BatchSlots} a run writes batches into, at most
     * {@link #maxBatchSlots}. By default that bound; a sampler that returns less must give iterators whose
     * {@link BatchIterator#next(BatchSlots)} grows the slots when a batch needs more.
     */
    default int initialBatchSlots(int n) {
        return maxBatchSlots(n);
    }

    /** A fresh iterator over the T batches for a dataset of size n. */
    BatchIterator iterator(int n, UniformRandomProvider rng);

    /**
     * The event an optimizer records in its ledger for <em>one</em> noisy batch sum made with this
     * sampler (per-record vectors in the unit ℓ2 ball, Gaussian noise of standard deviation
     * {@code noiseMultiplier}).
     */
    DpEvent stepEvent(int n, double noiseMultiplier);

    /**
     * The privacy event of ABLQ with this sampler over all T steps. By default the T-fold
     * composition of {@link #stepEvent}; samplers whose steps are not independently sampled
     * (deterministic, shuffling) override this and state how the ledger is read.
     */
    default DpEvent privacyEvent(int n, double noiseMultiplier) {
        return DpEvents.normalize(new SelfComposedEvent(stepEvent(n, noiseMultiplier), steps(n)));
    }

    /** The neighbouring relation under which {@link #privacyEvent} holds. */
    NeighboringRelation relation();

    /**
     * True if batches are fixed positions of [0, n), so n must be the exact number of rows; false if the
     * sampler is valid for any dataset of at most n rows, where the absent records are never included
     * (Poisson sampling decides each record independently).
     */
    default boolean requiresExactSize() {
        return true;
    }

    /** Produces batches one at a time without allocating. */
    interface BatchIterator {
        /**
         * Writes the next batch's indices into {@code indices} and per-slot weights (1 for a real
         * example, 0 for padding) into {@code weights}.
         *
         * @return the number of slots filled (may be 0 for an empty Poisson batch)
         */
        int next(int[] indices, double[] weights);

        /**
         * The same batch written into slots, grown first if needed. By default the arrays are used as
         * they are, so their capacity must be at least the sampler's {@link BatchSampler#maxBatchSlots}; iterators of
         * samplers with a smaller {@link BatchSampler#initialBatchSlots} override this. Either way the same records
         * in the same order as {@link #next(int[], double[])}.
         *
         * @return the number of slots filled
         */
        default int next(BatchSlots slots) {
            return next(slots.indices(), slots.weights());
        }
    }
}
