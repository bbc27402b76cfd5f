package org.dpopt.sampling;

import org.dpopt.accounting.AblqStepEvent;
import org.dpopt.linalg.Checks;

/**
 * Dynamic shuffling 𝒮↻_{b,T} (Chua et al., "Scalable DP-SGD: Shuffling vs. Poisson Subsampling",
 * NeurIPS 2024, arXiv:2411.04205, Algorithm 3): a fresh uniformly random permutation π_e at the start
 * of every epoch (reshuffled in place); batch t of epoch e is π_e applied to block t. Requires b | n;
 * T = E·n/b.
 *
 * <p>Privacy event: {@code SelfComposed(AblqStep(DYNAMIC_SHUFFLE, z, S), T)} under zero-out. Valid
 * upper bound: the deterministic curve; the paper's optimistic lower bound (Thm 3.8) composes E
 * independent single-epoch max-statistic experiments. No Poisson amplification.
 *
 * @param batchSize b
 * @param epochs E
 */
public record DynamicShuffleSampler(int batchSize, int epochs) implements FixedSizeBatchSampler {

    /** Validates. */
    public DynamicShuffleSampler {
        Checks.atLeastOne("batchSize", batchSize);
        Checks.atLeastOne("epochs", epochs);
    }

    @Override
    public String name() {
        return "shuffle-dynamic";
    }

    @Override
    public AblqStepEvent.BatchOrder batchOrder() {
        return AblqStepEvent.BatchOrder.DYNAMIC_SHUFFLE;
    }
}
