package org.dpopt.accounting;

import org.apache.commons.math3.special.Erf;
import org.dpopt.linalg.Checks;

/**
 * The exact privacy curve of the Gaussian mechanism (Balle &amp; Wang, "Improving the Gaussian
 * Mechanism for Differential Privacy", ICML 2018, arXiv:1805.06530):
 *
 * <pre>
 *   δ(ε) = Φ(1/(2z) − εz) − e^ε · Φ(−1/(2z) − εz),     z = σ/Δ,
 * </pre>
 *
 * tight for both add/remove directions. The second term is evaluated as
 * {@code exp(ε + log Φ(·))} so that it neither overflows nor loses the difference.
 */
public final class GaussianMechanism {
    private GaussianMechanism() {
    }

    private static final double LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

    /** log Φ(x), accurate far into the lower tail. */
    public static double logNormalCdf(double x) {
        if (x > -30) {
            double v = 0.5 * Erf.erfc(-x / Math.sqrt(2));
            if (v > 0) {
                return Math.log(v);
            }
        }
        // Mills-ratio asymptotic series for x → −∞
        double x2 = x * x;
        double series = 1 - 1 / x2 + 3 / (x2 * x2) - 15 / (x2 * x2 * x2) + 105 / (x2 * x2 * x2 * x2);
        return -0.5 * x2 - Math.log(-x) - LOG_SQRT_2PI + Math.log(series);
    }

    /** Φ(x). */
    public static double normalCdf(double x) {
        return 0.5 * Erf.erfc(-x / Math.sqrt(2));
    }

    /**
     * δ(ε) of one Gaussian release with noise multiplier z.
     *
     * @param epsilon ε ≥ 0
     * @param z noise multiplier σ/Δ &gt; 0
     */
    public static double delta(double epsilon, double z) {
        if (!(epsilon >= 0)) {
            throw Checks.fail("epsilon", "non-negative", epsilon);
        }
        Checks.positiveOrInfinite("noiseMultiplier", z);
        if (Double.isInfinite(epsilon)) {
            return 0;
        }
        double a = 0.5 / z - epsilon * z;
        double b = -0.5 / z - epsilon * z;
        double first = normalCdf(a);
        double second = Math.exp(epsilon + logNormalCdf(b));
        double d = first - second;
        if (d <= 0 || !(first > 0)) {
            // both terms are in the far tail: use the log-space difference
            double la = logNormalCdf(a);
            double lb = epsilon + logNormalCdf(b);
            if (lb >= la) {
                return 0;
            }
            return Math.exp(la + Math.log1p(-Math.exp(lb - la)));
        }
        return Math.min(1, d);
    }

    /**
     * The smallest ε ≥ 0 with δ(ε) ≤ δ, returned as the upper end of a bisection bracket narrowed to
     * adjacent doubles (so the result is never optimistic, and at most one ulp above the smallest double
     * that satisfies the condition).
     */
    public static double epsilon(double delta, double z) {
        Checks.delta("delta", delta);
        Checks.positive("noiseMultiplier", z);
        if (delta(0, z) <= delta) {
            return 0;
        }
        double hi = 1;
        while (delta(hi, z) > delta) {
            hi *= 2;
            if (hi > 1e12) {
                return Double.POSITIVE_INFINITY;
            }
        }
        double lo = hi == 1 ? 0 : hi / 2;
        // down to adjacent doubles: a budget split by calibration (δ(ε_target; z) ≤ δ) then reports at
        // most ε_target instead of a bracket end up to 1e-12 above it
        return Bisection.bracket(lo, hi, mid -> !(delta(mid, z) > delta), (a, b) -> b - a > Math.ulp(b), 1100)[1];
    }

    /** The smallest noise multiplier z with δ(ε; z) ≤ δ (upper end of the bracket). */
    public static double noiseMultiplier(double epsilon, double delta) {
        Checks.epsilon("epsilon", epsilon);
        Checks.delta("delta", delta);
        double hi = 1;
        while (delta(epsilon, hi) > delta) {
            hi *= 2;
        }
        double lo = hi / 2;
        while (lo > 1e-12 && delta(epsilon, lo) <= delta) {
            hi = lo;
            lo /= 2;
        }
        return Bisection.bracket(lo, hi, mid -> !(delta(epsilon, mid) > delta), (a, b) -> b - a > 1e-12 * b, 200)[1];
    }
}
