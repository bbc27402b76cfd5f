package org.dpopt.accounting;

import java.util.function.DoubleFunction;
import java.util.function.LongFunction;
import org.dpopt.linalg.Checks;

/**
 * Solving for a mechanism parameter against any accountant: the smallest noise multiplier, or the
 * largest number of steps or sampling rate, whose event meets a target (ε, δ).
 *
 * <p>Every routine returns the <em>privacy-safe end of its bracket</em>: the returned parameter has
 * been checked to satisfy {@code accountant.epsilon(event, δ) ≤ ε}. When no parameter in the search
 * range meets the budget, an {@link IllegalArgumentException} says so.
 *
 * <p><b>Noise multiplier.</b> For accountants whose evaluations are cheap (RDP, composition
 * theorems, closed forms) the search is doubling plus bisection ({@link BisectionCalibration}). For
 * the PLD accountant, whose evaluations cost FFTs, an RDP bracket, Newton steps with the RDP slope and
 * a safeguarded secant search ({@link SecantCalibration}); its upper end is returned only after
 * {@code accountant.epsilon(event(z), δ) ≤ ε} has been verified at it (the PLD accountant memoizes the
 * discretized single steps, so that check and a report at the result reuse them).
 */
public final class Calibration {
    private Calibration() {
    }

    /** Relative tolerance of the search on continuous parameters. */
    public static final double DEFAULT_RELATIVE_TOLERANCE = 1e-4;

    /**
     * The smallest noise multiplier z (up to relative tolerance) with ε(event(z), δ) ≤ ε. ε is
     * assumed non-increasing in z.
     *
     * @param accountant the accountant
     * @param eventOf z ↦ event
     * @param epsilon target ε &gt; 0
     * @param delta target δ ∈ (0, 1)
     * @return z satisfying the target (the upper end of the final bracket)
     */
    public static double noiseMultiplier(PrivacyAccountant accountant, DoubleFunction<DpEvent> eventOf,
            double epsilon, double delta) {
        return noiseMultiplier(accountant, eventOf, epsilon, delta, DEFAULT_RELATIVE_TOLERANCE);
    }

    /** As {@link #noiseMultiplier(PrivacyAccountant, DoubleFunction, double, double)} with a tolerance. */
    public static double noiseMultiplier(PrivacyAccountant accountant, DoubleFunction<DpEvent> eventOf,
            double epsilon, double delta, double relTol) {
        Checks.notNull("accountant", accountant);
        Checks.notNull("eventOf", eventOf);
        Checks.epsilon("epsilon", epsilon);
        Checks.delta("delta", delta);
        Checks.openUnit("relTol", relTol);
        if (!(accountant instanceof PldAccountant)) {
            // each evaluation costs microseconds: the plain bisection (kept bit-for-bit as before)
            return BisectionCalibration.noiseMultiplier(accountant, eventOf, epsilon, delta, relTol);
        }
        return SecantCalibration.noiseMultiplier(accountant, eventOf, epsilon, delta, relTol);
    }

    /**
     * The largest count T in [1, maxCount] with ε(event(T), δ) ≤ ε (ε non-decreasing in T).
     *
     * @throws IllegalArgumentException if even T = 1 exceeds the budget
     */
    public static long steps(PrivacyAccountant accountant, LongFunction<DpEvent> eventOf, double epsilon,
            double delta, long maxCount) {
        Checks.epsilon("epsilon", epsilon);
        Checks.delta("delta", delta);
        Checks.atLeastOne("maxCount", maxCount);
        if (!(accountant.epsilon(eventOf.apply(1), delta) <= epsilon)) {
            throw new IllegalArgumentException("privacy budget must allow at least one step but epsilon "
                    + "for one step exceeds " + epsilon + " at delta = " + delta);
        }
        if (accountant.epsilon(eventOf.apply(maxCount), delta) <= epsilon) {
            return maxCount;
        }
        long lo = 1;
        long hi = maxCount; // eps(lo) ok, eps(hi) not ok
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (accountant.epsilon(eventOf.apply(mid), delta) <= epsilon) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The largest sampling rate q in (0, 1] (up to relative tolerance) with ε(event(q), δ) ≤ ε
     * (ε non-decreasing in q). Returns the lower (safe) end of the bracket.
     */
    public static double samplingRate(PrivacyAccountant accountant, DoubleFunction<DpEvent> eventOf,
            double epsilon, double delta) {
        Checks.epsilon("epsilon", epsilon);
        Checks.delta("delta", delta);
        if (accountant.epsilon(eventOf.apply(1.0), delta) <= epsilon) {
            return 1.0;
        }
        double lo = 0.5;
        int guard = 0;
        while (!(accountant.epsilon(eventOf.apply(lo), delta) <= epsilon)) {
            lo /= 2;
            if (++guard > 60) {
                throw new IllegalArgumentException("privacy budget must be reachable but was not: no sampling "
                        + "rate down to " + lo + " gives epsilon <= " + epsilon);
            }
        }
        double hi = Math.min(1.0, lo * 2);
        return Bisection.bracket(lo, hi, mid -> !(accountant.epsilon(eventOf.apply(mid), delta) <= epsilon),
                (a, b) -> b - a > DEFAULT_RELATIVE_TOLERANCE * a)[0];
    }
}
