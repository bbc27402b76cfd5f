package org.dpopt.sampling;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.AblqStepEvent;
import org.dpopt.accounting.AblqStepEvent.BatchOrder;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.linalg.Checks;

/**
 * The three fixed-size samplers of Chua et al., "Scalable DP-SGD: Shuffling vs. Poisson Subsampling",
 * NeurIPS 2024, arXiv:2411.04205, Algorithm 3: E epochs of S = n/b batches of exactly b records
 * (requires b | n), so T = E·n/b, normalizer b, b slots per batch, zero-out relation. They differ only
 * in their {@link BatchOrder}, which fixes both when the record order is drawn and the tag of their
 * step event {@code AblqStep(order, z, S)}:
 * <ul>
 * <li>{@link #deterministic} 𝒟_{b,T} (the identity order): epoch after epoch, batch t is records
 * {(t−1)b, …, tb − 1}. Every record is in exactly E batches, so ABLQ is one Gaussian release of
 * sensitivity √E (exact).</li>
 * <li>{@link #persistentShuffle} 𝒮⋄_{b,T}: one uniformly random permutation π is drawn when the iterator
 * is created and reused every epoch; batch t is π applied to block t. Valid upper bound: the
 * deterministic curve (Gaussian, sensitivity √E); the paper's optimistic lower bound (Thm 3.5) is the
 * single-epoch max-statistic bound at σ/√E. No Poisson amplification.</li>
 * <li>{@link #dynamicShuffle} 𝒮↻_{b,T}: a fresh uniformly random permutation π_e at the start of every
 * epoch (reshuffled in place); batch t of epoch e is π_e applied to block t. Valid upper bound: the
 * deterministic curve; the paper's optimistic lower bound (Thm 3.8) composes E independent
 * single-epoch max-statistic experiments. No Poisson amplification.</li>
 * </ul>
 *
 * @param order the record order: identity, one permutation for all epochs, or a fresh one every epoch
 * @param batchSize b
 * @param epochs E
 */
public record FixedSizeBatchSampler(BatchOrder order, int batchSize, int epochs) implements BatchSampler {

    /** Validates. */
    public FixedSizeBatchSampler {
        Checks.notNull("order", order);
        Checks.atLeastOne("batchSize", batchSize);
        Checks.atLeastOne("epochs", epochs);
    }

    /** Deterministic batches 𝒟_{b,T}: the identity order. */
    public static FixedSizeBatchSampler deterministic(int batchSize, int epochs) {
        return new FixedSizeBatchSampler(BatchOrder.DETERMINISTIC, batchSize, epochs);
    }

    /** Persistent shuffling 𝒮⋄_{b,T}: one permutation for all epochs. */
    public static FixedSizeBatchSampler persistentShuffle(int batchSize, int epochs) {
        return new FixedSizeBatchSampler(BatchOrder.PERSISTENT_SHUFFLE, batchSize, epochs);
    }

    /** Dynamic shuffling 𝒮↻_{b,T}: a fresh permutation every epoch. */
    public static FixedSizeBatchSampler dynamicShuffle(int batchSize, int epochs) {
        return new FixedSizeBatchSampler(BatchOrder.DYNAMIC_SHUFFLE, batchSize, epochs);
    }

    @Override
    public String name() {
        return switch (order) {
            case DETERMINISTIC -> "deterministic";
            case PERSISTENT_SHUFFLE -> "shuffle-persistent";
            case DYNAMIC_SHUFFLE -> "shuffle-dynamic";
        };
    }

    @Override
    public BatchIterator iterator(int n, UniformRandomProvider rng) {
        return FixedPartition.iterator(n, batchSize, rng, order);
    }

    @Override
    public DpEvent stepEvent(int n, double noiseMultiplier) {
        return new AblqStepEvent(order, noiseMultiplier, FixedPartition.stepsPerEpoch(n, batchSize));
    }

    @Override
    public long steps(int n) {
        return (long) FixedPartition.stepsPerEpoch(n, batchSize) * epochs;
    }

    @Override
    public double normalizer(int n) {
        return batchSize;
    }

    @Override
    public int maxBatchSlots(int n) {
        FixedPartition.stepsPerEpoch(n, batchSize);
        return batchSize;
    }

    @Override
    public NeighboringRelation relation() {
        return NeighboringRelation.ZERO_OUT;
    }
}
