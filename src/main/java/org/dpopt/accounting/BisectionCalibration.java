package org.dpopt.accounting;

import java.util.function.DoubleFunction;

/**
 * Noise calibration for accountants whose evaluations are cheap (RDP, basic and advanced composition,
 * ABLQ's closed forms): doubling from z = 1 until the budget is met, halving to find a z that misses
 * it, then bisection on that bracket keeping ε(hi) ≤ target. It assumes only that ε is non-increasing in
 * z; the returned upper end has been evaluated and meets the target.
 */
final class BisectionCalibration {
    private BisectionCalibration() {
    }

    /** The upper end of the final bracket [lo, hi] with hi − lo ≤ relTol·hi. */
    static double noiseMultiplier(PrivacyAccountant accountant, DoubleFunction<DpEvent> eventOf,
            double epsilon, double delta, double relTol) {
        double hi = 1.0;
        int guard = 0;
        while (!(accountant.epsilon(eventOf.apply(hi), delta) <= epsilon)) {
            hi *= 2;
            if (++guard > 40) {
                throw unreachable(hi, epsilon, delta);
            }
        }
        double lo = hi / 2;
        guard = 0;
        while (accountant.epsilon(eventOf.apply(lo), delta) <= epsilon) {
            hi = lo;
            lo /= 2;
            if (++guard > 60) {
                return hi; // essentially no noise needed
            }
        }
        // invariant: eps(lo) > target, eps(hi) <= target
        return Bisection.bracket(lo, hi, mid -> accountant.epsilon(eventOf.apply(mid), delta) <= epsilon,
                (a, b) -> b - a > relTol * b)[1];
    }

    /** The refusal when doubling never met the budget. */
    static IllegalArgumentException unreachable(double hi, double epsilon, double delta) {
        return new IllegalArgumentException("privacy budget must be reachable but was not: no noise "
                + "multiplier up to " + hi + " gives epsilon <= " + epsilon + " at delta = " + delta);
    }
}
