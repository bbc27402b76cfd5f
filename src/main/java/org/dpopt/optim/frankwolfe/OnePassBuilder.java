package org.dpopt.optim.frankwolfe;

import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.Preset;

/**
 * The setters the one-pass methods ({@link VarianceReducedFrankWolfe}, {@link NoisyStochasticFrankWolfe})
 * share: the schedule (rounds, step size, steps per round, passes) and the read order. Every setter
 * validates. {@code preset}: {@link Preset#PRACTICAL} (default): release the last iterate, which for a
 * convex loss keeps the Frank–Wolfe rate and is post-processing of the released selections;
 * {@link Preset#PAPER}: the uniformly random iterate the theorems (stationarity for non-convex losses)
 * are stated for. {@code accountant}: must be for replace-one on the one-pass schedules; it calibrates
 * the noise and certifies the run.
 *
 * @param <B> the concrete builder, returned by every setter
 * @param <S> the kind of constraint set (a polytope or an ℓp ball)
 */
public abstract class OnePassBuilder<B extends OnePassBuilder<B, S>, S extends ConvexSet>
        extends FrankWolfeBuilder<B, S> {
    private int rounds;
    private double stepSize = Double.NaN;
    private int stepsPerRound;
    private boolean shuffle = true;
    private int shuffleBlock; // 0: automatic
    private int passes; // 0: automatic

    OnePassBuilder(PrivacyAccountant defaultAccountant, String algorithm) {
        super(defaultAccountant, algorithm);
    }

    /** Number of rounds R ≥ 1 (default ⌈(nε)^{1/3}⌉). */
    public B rounds(int r) {
        this.rounds = Checks.atLeastOne("rounds", r);
        return self();
    }

    /**
     * The number of passes K ≥ 1 over the data (default: 1; the practical defaults with no schedule
     * setting run Poisson batches instead, and giving K selects the passes). Each pass is the one-pass mechanism on the same
     * data-independent read order, started from the previous pass's iterate; the K passes compose.
     */
    public B passes(int k) {
        this.passes = Checks.atLeastOne("passes", k);
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
     * statistically sound when the rows are already in random order. Not used by noisy-sfw's practical
     * default, whose Poisson batches are sampled.
     */
    public B shuffle(boolean on) {
        this.shuffle = on;
        return self();
    }

    /**
     * Rows per shuffled block (1 = a uniformly random permutation of rows; default automatic:
     * min(64, max(1, b/4)) for difference batches of b rows, so every batch spans ≥ 4 blocks). Blocks
     * keep memory reads sequential: at n = 10⁶, d = 100 a row-level permutation made the pass ~7–10×
     * a plain gradient pass on our machine, blocks of 32 rows ~2×, storage order ~1.2×. Not used by
     * noisy-sfw's practical default (Poisson batches).
     */
    public B shuffleBlock(int rows) {
        this.shuffleBlock = Checks.atLeastOne("shuffleBlock", rows);
        return self();
    }

    /** The configuration as set so far. */
    OnePassSettings settings() {
        return new OnePassSettings(rounds, stepSize, stepsPerRound, shuffle, shuffleBlock, accountant(), population(),
                preset(), passes);
    }
}
