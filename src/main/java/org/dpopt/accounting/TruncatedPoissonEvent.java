package org.dpopt.accounting;

import org.dpopt.linalg.Checks;

/**
 * One step of truncated Poisson sampling 𝒫_{b,B} (Chua et al., NeurIPS 2024,
 * arXiv:2411.04205, Algorithm 4): each of the n records joins the batch independently with
 * probability q; if more than B joined, a uniformly random subset of exactly B is kept; the inner
 * event is applied to the (padded) batch. Zero-out neighbours (n fixed and public).
 *
 * <p>Steps are independent, so {@code SelfComposed(this, T)} is an ordinary T-fold composition. The
 * {@link AblqAccountant} bounds it by the untruncated Poisson curve plus the truncation term
 * {@code (1 + e^ε)·(1 − (1 − r_B)^T)}, r_B = Pr[Bin(n, q) &gt; B] (see {@link TruncationTerm}).
 *
 * @param samplingProbability q ∈ (0, 1]
 * @param datasetSize the public n
 * @param maxBatchSize B ≥ 1
 * @param event the mechanism on each batch (a {@link GaussianEvent} for ABLQ)
 */
public record TruncatedPoissonEvent(double samplingProbability, long datasetSize, long maxBatchSize,
        DpEvent event) implements DpEvent {

    /** Validates. */
    public TruncatedPoissonEvent {
        Checks.probability("samplingProbability", samplingProbability);
        Checks.atLeastOne("datasetSize", datasetSize);
        Checks.atLeastOne("maxBatchSize", maxBatchSize);
        Checks.notNull("event", event);
    }

    @Override
    public String describe() {
        return "TruncatedPoisson(q=" + samplingProbability + ", n=" + datasetSize + ", B=" + maxBatchSize + ", "
                + event.describe() + ")";
    }
}
