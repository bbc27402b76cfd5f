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
        Checks.positive("noiseMultiplier", noiseMultiplier);
        Checks.finite("noiseMultiplier", noiseMultiplier);
        check(direction, h, rounding);
        return discretize(LossModels.gaussian(noiseMultiplier), h, rounding);
    }

    /**
     * Laplace mechanism with noise multiplier b/Δ₁ (pair Lap(1, b) vs Lap(0, b)); both directions give
     * the same PLD; pure (1/b)-DP.
     */
    public static PrivacyLossDistribution laplace(double noiseMultiplier, Direction direction, double h,
            Rounding rounding) {
        Checks.positive("noiseMultiplier", noiseMultiplier);
        Checks.finite("noiseMultiplier", noiseMultiplier);
        check(direction, h, rounding);
        return discretize(LossModels.laplace(noiseMultiplier), h, rounding);
    }

    /**
     * Poisson-subsampled Gaussian (rate q, noise multiplier z, add/remove-one), in the given
     * direction (see {@link Direction}); q = 1 is the plain Gaussian mechanism. The pair is tightly
     * dominating for its direction (Zhu, Dong, Wang, AISTATS 2022, arXiv:2106.08567).
     */
    public static PrivacyLossDistribution poissonGaussian(double samplingProbability, double noiseMultiplier,
            Direction direction, double h, Rounding rounding) {
        Checks.probability("samplingProbability", samplingProbability);
        Checks.positive("noiseMultiplier", noiseMultiplier);
        Checks.finite("noiseMultiplier", noiseMultiplier);
        check(direction, h, rounding);
        if (samplingProbability == 1.0) {
            return discretize(LossModels.gaussian(noiseMultiplier), h, rounding);
        }
        return discretize(LossModels.poissonGaussian(samplingProbability, noiseMultiplier,
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
        return discretize(model, h, rounding);
    }

    /** Puts a continuous loss on the grid (see the class comment). */
    static PrivacyLossDistribution discretize(LossModel m, double h, Rounding rounding) {
        double lossLow = findLow(m);
        double lossHigh = findHigh(m);
        long kLo = (long) Math.floor(lossLow / h) - 1;
        long kHi = (long) Math.ceil(lossHigh / h) + 1;
        long count = kHi - kLo + 1;
        if (count > PrivacyLossDistribution.MAX_LEAF_POINTS) {
            throw new PldGridTooLargeException(count, PrivacyLossDistribution.MAX_LEAF_POINTS);
        }
        int n = (int) count;
        double[] probs = new double[n];
        double cP = m.center();
        double cQ = -m.center();
        double denom = -Math.expm1(-h);
        double margin = Math.min(1, 1e-15 / (h * h));
        // tails at the left end of the current interval, on the sides used for it
        double[] leftVals = new double[2];
        double[] rightVals = new double[2];
        boolean sideP = kLo * h >= cP;
        boolean sideQ = kLo * h >= cQ;
        m.tails(kLo * h, sideP, sideQ, leftVals);
        for (int i = 0; i < n - 1; i++) {
            double left = (kLo + i) * h;
            double right = (kLo + i + 1) * h;
            boolean sP = left >= cP;
            boolean sQ = left >= cQ;
            if (sP != sideP || sQ != sideQ) {
                sideP = sP;
                sideQ = sQ;
                m.tails(left, sP, sQ, leftVals);
            }
            m.tails(right, sP, sQ, rightVals);
            double massP = sP ? leftVals[0] - rightVals[0] : rightVals[0] - leftVals[0];
            double massQ = Math.max(0, sQ ? leftVals[1] - rightVals[1] : rightVals[1] - leftVals[1]);
            double[] swap = leftVals;
            leftVals = rightVals;
            rightVals = swap;
            if (!(massP > 0)) {
                continue;
            }
            if (rounding == Rounding.FLOOR) {
                probs[i] += massP;
            } else if (rounding == Rounding.CEIL) {
                probs[i + 1] += massP;
            } else {
                // ∫ (1 − e^{−(l − left)})/(1 − e^{−h}) dP over the interval goes to the right end. The
                // difference and the division by h each lose ~log10(1/h) digits (error ≲ 1e-8·massP at
                // h = 1e-4); the margin (1e-15/h²)·massP moves that much more mass up, which can only
                // raise the curve.
                // e^{left}·Q(I) in log space: e^{left} overflows for losses above ~709, where Q(I) underflows
                double qPart = massQ > 0 ? Math.exp(left + Math.log(massQ)) : 0;
                double toRight = (massP - qPart) / denom + margin * massP;
                toRight = toRight >= 0 ? Math.min(massP, toRight) : Double.isNaN(toRight) ? massP : 0; // undefined → up
                probs[i + 1] += toRight;
                probs[i] += massP - toRight;
            }
        }
        double below = m.lowerP(kLo * h);
        double above = m.upperP(kHi * h);
        double inf = 0;
        if (rounding.isPessimistic()) {
            probs[0] += below;
            inf = above;
        } else {
            probs[n - 1] += above;
        }
        int lo = 0;
        while (lo < n - 1 && probs[lo] == 0) {
            lo++;
        }
        int hi = n - 1;
        while (hi > lo && probs[hi] == 0) {
            hi--;
        }
        double[] kept = new double[hi - lo + 1];
        System.arraycopy(probs, lo, kept, 0, kept.length);
        for (double p : kept) {
            if (!(p >= 0) || Double.isInfinite(p)) {
                throw new IllegalStateException("discretized PLD has a non-finite probability " + p + " (internal error)");
            }
        }
        if (!(inf >= 0 && inf <= 1)) {
            throw new IllegalStateException("discretized PLD has infinity mass " + inf + " (internal error)");
        }
        return PrivacyLossDistribution.of(h, kLo + lo, kept, inf, rounding.isPessimistic());
    }

    private static void requireFinite(double center, double scale) {
        if (!Double.isFinite(center) || !(scale > 0) || Double.isInfinite(scale)) {
            throw new PldGridTooLargeException("PLD loss model must have a finite centre and scale but had " + center
                    + " and " + scale);
        }
    }

    private static double findHigh(LossModel m) {
        if (m.supportHigh() < Double.POSITIVE_INFINITY) {
            return m.supportHigh();
        }
        double step = m.scale();
        double prev = m.center();
        requireFinite(prev, step);
        double l = prev + step;
        for (int it = 0; m.upperP(l) > CONSTRUCTION_TAIL; it++) {
            prev = l;
            step *= 2;
            l = m.center() + step;
            if (it > 1100 || !Double.isFinite(l)) {
                throw new PldGridTooLargeException("PLD loss range must be finite but its upper tail does not end");
            }
        }
        double lo = prev;
        double hi = l;
        for (int it = 0; it < 60 && hi - lo > 1e-9 * Math.max(1, Math.abs(hi)); it++) {
            double mid = 0.5 * (lo + hi);
            if (m.upperP(mid) > CONSTRUCTION_TAIL) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    private static double findLow(LossModel m) {
        double step = m.scale();
        double prev = m.center();
        requireFinite(prev, step);
        double l = prev - step;
        for (int it = 0; l > m.supportLow() && m.lowerP(l) > CONSTRUCTION_TAIL; it++) {
            prev = l;
            step *= 2;
            l = m.center() - step;
            if (it > 1100 || !Double.isFinite(l)) {
                throw new PldGridTooLargeException("PLD loss range must be finite but its lower tail does not end");
            }
        }
        if (l <= m.supportLow()) {
            return m.supportLow();
        }
        double lo = l;
        double hi = prev;
        for (int it = 0; it < 60 && hi - lo > 1e-9 * Math.max(1, Math.abs(lo)); it++) {
            double mid = 0.5 * (lo + hi);
            if (m.lowerP(mid) > CONSTRUCTION_TAIL) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return lo;
    }
}
