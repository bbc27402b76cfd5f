package org.dpopt.optim;

import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.linalg.Checks;

/**
 * The schedule setters shared by the one-pass methods ({@link VarianceReducedFrankWolfe},
 * {@link NoisyStochasticFrankWolfe}): rounds, step size, steps per round and the read order.
 *
 * @param <D> the kind of constraint set
 * @param <B> the concrete builder, returned by every setter
 */
abstract class OnePassFrankWolfeBuilder<D, B extends OnePassFrankWolfeBuilder<D, B>>
        extends FrankWolfeBuilder<D, B> {
    int rounds;
    double stepSize = Double.NaN;
    int stepsPerRound;
    boolean shuffle = true;
    int shuffleBlock; // 0: automatic

    OnePassFrankWolfeBuilder(PrivacyAccountant defaultAccountant) {
        super(defaultAccountant);
    }

    /** Number of rounds R ≥ 1 (default ⌈(nε)^{1/3}⌉). */
    public B rounds(int r) {
        this.rounds = Checks.atLeastOne("rounds", r);
        return self();
    }

    /** Constant step μ ∈ (0, 1] (default 1/R). */
    public B stepSize(double mu) {
        this.stepSize = Checks.inRange("stepSize", mu, Double.MIN_VALUE, 1);
        return self();
    }

    /** Steps per round m ≥ 1 (default ⌈L/(βμ·diam₂)⌉; diam₂ = 2r for an ℓp ball of radius r, p ≤ 2). */
    public B stepsPerRound(int m) {
        this.stepsPerRound = Checks.atLeastOne("stepsPerRound", m);
        return self();
    }

    /**
     * Whether batches are cut from a random order of row blocks (default) or from the storage order.
     * Both are data-independent partitions, so privacy is the same; storage order is only
     * statistically sound when the rows are already in random order.
     */
    public B shuffle(boolean on) {
        this.shuffle = on;
        return self();
    }

    /**
     * Rows per shuffled block (1 = a uniformly random permutation of rows; default automatic:
     * min(64, max(1, b/4)) for difference batches of b rows, so every batch spans ≥ 4 blocks). Blocks
     * keep memory reads sequential: at n = 10⁶, d = 100 a row-level permutation made the pass ~7–10×
     * a plain gradient pass on our machine, blocks of 32 rows ~2×, storage order ~1.2×.
     */
    public B shuffleBlock(int rows) {
        this.shuffleBlock = Checks.atLeastOne("shuffleBlock", rows);
        return self();
    }

    /** The configuration as set so far. */
    OnePassFrankWolfe.Settings<D> settings() {
        return new OnePassFrankWolfe.Settings<>(domain, rounds, stepSize, stepsPerRound, accountant, diagnostics,
                population, shuffle, shuffleBlock);
    }
}
