package org.dpopt.accounting.pld;

import org.dpopt.linalg.Checks;

/**
 * Discretized PLDs of standard mechanisms (all with unit sensitivity; noise multipliers relative to
 * the sensitivity under the relation being accounted).
 *
 * <p>Construction: the P-mass and the Q-mass of the loss in each grid interval (l_k, l_{k+1}] are
 * computed from closed-form tails of the loss (never from sampled data), the interval's mass is put on
 * the grid according to the {@link Rounding}, and the two tails beyond the grid (each of P-mass at
 * most {@link #CONSTRUCTION_TAIL}) are handled like any truncation: pessimistic → lower tail moved up
 * to the first point, upper tail to +∞; optimistic → lower tail dropped, upper tail moved down.
 */
public final class PrivacyLossDistributions {
    private PrivacyLossDistributions() {
    }

    /** P-mass beyond the grid on each side at construction. */
    public static final double CONSTRUCTION_TAIL = 1e-20;

    /**
     * Gaussian mechanism with noise multiplier z (pair N(1, z²) vs N(0, z²)); both directions give
     * the same PLD.
     */
    public static PrivacyLossDistribution gaussian(double noiseMultiplier, Direction direction, double h,
            Rounding rounding) {
        check(noiseMultiplier, direction, h, rounding);
        return LossDiscretizer.discretize(LossModels.gaussian(noiseMultiplier), h, rounding);
    }

    /**
     * Laplace mechanism with noise multiplier b/Δ₁ (pair Lap(1, b) vs Lap(0, b)); both directions give
     * the same PLD; pure (1/b)-DP.
     */
    public static PrivacyLossDistribution laplace(double noiseMultiplier, Direction direction, double h,
            Rounding rounding) {
        check(noiseMultiplier, direction, h, rounding);
        return LossDiscretizer.discretize(LossModels.laplace(noiseMultiplier), h, rounding);
    }

    /**
     * Poisson-subsampled Gaussian (rate q, noise multiplier z, add/remove-one), in the given
     * direction (see {@link Direction}); q = 1 is the plain Gaussian mechanism. The pair is tightly
     * dominating for its direction (Zhu, Dong, Wang, AISTATS 2022, arXiv:2106.08567).
     */
    public static PrivacyLossDistribution poissonGaussian(double samplingProbability, double noiseMultiplier,
            Direction direction, double h, Rounding rounding) {
        Checks.probability("samplingProbability", samplingProbability);
        check(noiseMultiplier, direction, h, rounding);
        if (samplingProbability == 1.0) {
            return LossDiscretizer.discretize(LossModels.gaussian(noiseMultiplier), h, rounding);
        }
        return LossDiscretizer.discretize(LossModels.poissonGaussian(samplingProbability, noiseMultiplier,
                direction == Direction.REMOVE), h, rounding);
    }

    /**
     * The dominating pair of an arbitrary (ε, δ)-DP mechanism (Kairouz, Oh, Viswanath, ICML 2015,
     * arXiv:1311.0776): loss +∞ with mass δ, +ε with mass (1−δ)e^ε/(1+e^ε), −ε with mass
     * (1−δ)/(1+e^ε). Its curve is the largest curve of any (ε, δ)-DP mechanism at every ε′, so it
     * may be composed with any other pair. Symmetric in direction.
     */
    public static PrivacyLossDistribution epsilonDelta(double epsilon, double delta, double h, Rounding rounding) {
        Checks.positive("epsilon", epsilon);
        Checks.finite("epsilon", epsilon);
        if (!(delta >= 0 && delta < 1)) {
            throw Checks.fail("delta", "in [0, 1)", delta);
        }
        check(Direction.REMOVE, h, rounding);
        double up = (1 - delta) / (1 + Math.exp(-epsilon));
        double down = (1 - delta) / (1 + Math.exp(epsilon));
        return fromAtoms(new double[] {-epsilon, epsilon}, new double[] {down, up}, delta, h, rounding);
    }

    /**
     * A PLD of a finitely supported loss: atoms at {@code losses} (any reals) with P-masses
     * {@code masses}, plus {@code infinityMass} at +∞, put on the grid with the given rounding.
     */
    public static PrivacyLossDistribution fromAtoms(double[] losses, double[] masses, double infinityMass, double h,
            Rounding rounding) {
        Checks.notNull("losses", losses);
        Checks.notNull("masses", masses);
        if (losses.length != masses.length || losses.length == 0) {
            throw Checks.fail("losses and masses", "non-empty and of equal length", losses.length + " vs " + masses.length);
        }
        check(Direction.REMOVE, h, rounding);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (double l : losses) {
            Checks.finite("loss", l);
            min = Math.min(min, (long) Math.floor(l / h));
            max = Math.max(max, (long) Math.floor(l / h) + 1);
        }
        if (max - min + 1 > PrivacyLossDistribution.MAX_GRID_POINTS) {
            throw new PldGridTooLargeException(max - min + 1);
        }
        double[] probs = new double[(int) (max - min + 1)];
        for (int i = 0; i < losses.length; i++) {
            double l = losses[i];
            double p = Checks.nonNegative("mass", masses[i]);
            long k = (long) Math.floor(l / h);
            double frac = l - k * h;
            int idx = (int) (k - min);
            if (frac <= 0) {
                probs[idx] += p;
            } else if (rounding == Rounding.FLOOR) {
                probs[idx] += p;
            } else if (rounding == Rounding.CEIL) {
                probs[idx + 1] += p;
            } else {
                double up = Math.min(1, -Math.expm1(-frac) / -Math.expm1(-h));
                probs[idx + 1] += p * up;
                probs[idx] += p * (1 - up);
            }
        }
        return PrivacyLossDistribution.fromPmf(h, min, probs, infinityMass, rounding.isPessimistic());
    }

    private static void check(double noiseMultiplier, Direction direction, double h, Rounding rounding) {
        Checks.positive("noiseMultiplier", noiseMultiplier);
        Checks.finite("noiseMultiplier", noiseMultiplier);
        check(direction, h, rounding);
    }

    private static void check(Direction direction, double h, Rounding rounding) {
        Checks.notNull("direction", direction);
        Checks.notNull("rounding", rounding);
        Checks.positive("h", h);
        Checks.inRange("h", h, 1e-9, 1);
    }

    /**
     * Puts the loss of any pair described by a {@link LossModel} on the grid (see the class comment);
     * the model's tails must be monotone in l and computed accurately on both sides of the median.
     */
    public static PrivacyLossDistribution fromLossModel(LossModel model, double h, Rounding rounding) {
        Checks.notNull("model", model);
        check(Direction.REMOVE, h, rounding);
        return LossDiscretizer.discretize(model, h, rounding);
    }
}
