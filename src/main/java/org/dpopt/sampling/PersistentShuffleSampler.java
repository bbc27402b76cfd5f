package org.dpopt.sampling;

import org.dpopt.accounting.AblqStepEvent;
import org.dpopt.linalg.Checks;

/**
 * Persistent shuffling 𝒮⋄_{b,T} (Chua et al., "Scalable DP-SGD: Shuffling vs. Poisson Subsampling",
 * NeurIPS 2024, arXiv:2411.04205, Algorithm 3): one uniformly random permutation π is drawn when the
 * iterator is created and reused every epoch; batch t is π applied to block t. Requires b | n;
 * T = E·n/b.
 *
 * <p>Privacy event: {@code SelfComposed(AblqStep(PERSISTENT_SHUFFLE, z, S), T)} under zero-out. Valid
 * upper bound: the deterministic curve (Gaussian, sensitivity √E); the paper's optimistic lower
 * bound (Thm 3.5) is the single-epoch max-statistic bound at σ/√E. No Poisson amplification.
 *
 * @param batchSize b
 * @param epochs E
 */
public record PersistentShuffleSampler(int batchSize, int epochs) implements FixedSizeBatchSampler {

    /** Validates. */
    public PersistentShuffleSampler {
        Checks.atLeastOne("batchSize", batchSize);
        Checks.atLeastOne("epochs", epochs);
    }

    @Override
    public String name() {
        return "shuffle-persistent";
    }

    @Override
    public AblqStepEvent.BatchOrder batchOrder() {
        return AblqStepEvent.BatchOrder.PERSISTENT_SHUFFLE;
    }
}
