package org.dpopt.sampling;

import org.dpopt.accounting.AblqStepEvent;
import org.dpopt.linalg.Checks;

/**
 * Deterministic batches 𝒟_{b,T} (Chua et al., "Scalable DP-SGD: Shuffling vs. Poisson Subsampling",
 * NeurIPS 2024, arXiv:2411.04205, Algorithm 3 with the identity order): epoch after epoch, batch t is
 * records {(t−1)b, …, tb − 1}. Requires b | n; T = E·n/b.
 *
 * <p>Privacy event: {@code SelfComposed(AblqStep(DETERMINISTIC, z, S), T)} under zero-out; every
 * record is in exactly E batches, so ABLQ is one Gaussian release of sensitivity √E (exact).
 *
 * @param batchSize b
 * @param epochs E
 */
public record DeterministicSampler(int batchSize, int epochs) implements FixedSizeBatchSampler {

    /** Validates. */
    public DeterministicSampler {
        Checks.atLeastOne("batchSize", batchSize);
        Checks.atLeastOne("epochs", epochs);
    }

    @Override
    public String name() {
        return "deterministic";
    }

    @Override
    public AblqStepEvent.BatchOrder batchOrder() {
        return AblqStepEvent.BatchOrder.DETERMINISTIC;
    }
}
