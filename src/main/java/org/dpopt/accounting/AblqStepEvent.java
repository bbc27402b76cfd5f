package org.dpopt.accounting;

import org.dpopt.linalg.Checks;

/**
 * One noisy batch sum of ABLQ (Chua et al., "Scalable DP-SGD: Shuffling vs. Poisson
 * Subsampling", NeurIPS 2024, arXiv:2411.04205, Algorithm 2) whose batches, within each epoch of
 * {@code stepsPerEpoch} = S consecutive steps, <em>partition</em> the n records: unit per-record
 * sensitivity, Gaussian noise of multiplier z, zero-out neighbours (n fixed and public).
 *
 * <p><b>Reading of repetitions.</b> Consecutive steps of such a sampler are not independent
 * mechanisms: {@code SelfComposed(AblqStep, k)} means "the first k steps of one ABLQ run with this
 * sampler", in which every record takes part in at most ⌈k/S⌉ steps (one per epoch). Accountants
 * that do not know this type must refuse it; the {@link AblqAccountant} reads it as stated here. A
 * {@link ComposedEvent} of two separate runs is not covered.
 *
 * @param order how the per-epoch partition is chosen
 * @param noiseMultiplier z = σ / (per-record sensitivity 1)
 * @param stepsPerEpoch S = n/b ≥ 1
 */
public record AblqStepEvent(BatchOrder order, double noiseMultiplier, long stepsPerEpoch) implements DpEvent {

    /** The three fixed-partition samplers of Chua et al. 2024 (Algorithm 3). */
    public enum BatchOrder {
        /** 𝒟_{b,T}: batch t of every epoch is the t-th block of b consecutive indices. */
        DETERMINISTIC,
        /** 𝒮⋄_{b,T}: one uniform permutation drawn once, reused every epoch. */
        PERSISTENT_SHUFFLE,
        /** 𝒮↻_{b,T}: a fresh uniform permutation every epoch. */
        DYNAMIC_SHUFFLE
    }

    /** Validates. */
    public AblqStepEvent {
        Checks.notNull("order", order);
        Checks.positive("noiseMultiplier", noiseMultiplier);
        Checks.atLeastOne("stepsPerEpoch", stepsPerEpoch);
    }

    @Override
    public String describe() {
        return "AblqStep(" + order + ", z=" + noiseMultiplier + ", S=" + stepsPerEpoch + ")";
    }
}
