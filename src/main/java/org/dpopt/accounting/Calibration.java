package org.dpopt.accounting;

import java.util.function.DoubleFunction;
import java.util.function.DoubleUnaryOperator;
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
 * theorems, closed forms) the search is doubling plus bisection. For the PLD accountant, whose
 * evaluations cost FFTs, ε(z) is only assumed to be non-increasing in z up to numerical noise and
 * nothing relies on it beyond the bracket: the search (1) brackets z with the Rényi-DP accountant at
 * integer orders where it supports the event (microseconds per evaluation; its ε is at least the PLD
 * accountant's, so the RDP-calibrated z already meets the budget under PLD), (2) steps towards the budget by
 * Newton's method in (log z, log margin) with the slope taken from RDP, and (3) closes the bracket by
 * a safeguarded secant (Illinois) search whose iterates stay inside it, on the margin
 * log(ε(z)/ε_target). The upper end is returned only after {@code accountant.epsilon(event(z), δ) ≤ ε}
 * has been verified at it (the PLD accountant memoizes the discretized single steps, so that check
 * and a report at the result reuse them).
 */
public final class Calibration {
    private Calibration() {
    }

    /** Relative tolerance of the search on continuous parameters. */
    public static final double DEFAULT_RELATIVE_TOLERANCE = 1e-4;

    private static final int MAX_EVALUATIONS = 80;

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
            return bisectNoiseMultiplier(accountant, eventOf, epsilon, delta, relTol);
        }
        DoubleUnaryOperator margin = marginOf(accountant, eventOf, epsilon, delta);
        // (1) a certified upper end: from RDP where it applies, else by doubling from 1
        double hi = rdpBracket(accountant, eventOf, epsilon, delta);
        double fHi = Double.NaN;
        if (!Double.isNaN(hi)) {
            fHi = margin.applyAsDouble(hi);
        }
        if (!(fHi <= 0)) {
            hi = Double.isNaN(hi) ? 1.0 : hi;
            fHi = margin.applyAsDouble(hi);
            int guard = 0;
            while (!(fHi <= 0)) {
                hi *= 2;
                if (++guard > 40) {
                    throw new IllegalArgumentException("privacy budget must be reachable but was not: no noise "
                            + "multiplier up to " + hi + " gives epsilon <= " + epsilon + " at delta = " + delta);
                }
                fHi = margin.applyAsDouble(hi);
            }
        }
        // (2) a lower end with margin > 0: Newton steps in log z with the RDP slope (or halving)
        double slope = rdpSlope(eventOf, epsilon, delta, hi, accountant);
        double lo = Double.NaN;
        double fLo = Double.NaN;
        int evaluations = 0;
        double z = hi;
        double fz = fHi;
        while (Double.isNaN(lo)) {
            double step = fz == Double.NEGATIVE_INFINITY || !(slope < 0) ? Math.log(0.5)
                    : Math.max(Math.log(0.25), Math.min(-1e-4, fz / -slope * 1.05 - relTol));
            double next = z * Math.exp(step);
            if (next < 1e-12 || ++evaluations > 60) {
                return verified(accountant, eventOf, epsilon, delta, hi, relTol); // essentially no noise needed
            }
            double fn = margin.applyAsDouble(next);
            if (fn > 0) {
                lo = next;
                fLo = fn;
            } else {
                hi = next;
                fHi = fn;
                z = next;
                fz = fn;
            }
        }
        // (3) Illinois (safeguarded secant) in log z on [lo, hi]: margin(lo) > 0 ≥ margin(hi)
        double a = Math.log(lo);
        double b = Math.log(hi);
        double fa = fLo;
        double fb = fHi;
        int side = 0;
        for (int it = 0; it < MAX_EVALUATIONS && Math.exp(b) - Math.exp(a) > relTol * Math.exp(b); it++) {
            double c;
            if (Double.isFinite(fa) && Double.isFinite(fb) && fa != fb) {
                c = (a * fb - b * fa) / (fb - fa);
            } else {
                c = 0.5 * (a + b);
            }
            // keep the iterate inside, at least half a tolerance from the ends: a secant step that lands
            // on an end means the root is within the tolerance of it, so test just beside it
            double minGap = 0.5 * relTol;
            if (Double.isNaN(c)) {
                c = 0.5 * (a + b);
            }
            c = Math.max(a + minGap, Math.min(b - minGap, c));
            if (!(c > a && c < b)) {
                c = 0.5 * (a + b);
            }
            double fc = margin.applyAsDouble(Math.exp(c));
            if (fc > 0) {
                a = c;
                fa = fc;
                if (side == -1) {
                    fb /= 2;
                }
                side = -1;
            } else {
                b = c;
                fb = fc;
                if (side == 1) {
                    fa /= 2;
                }
                side = 1;
            }
        }
        return verified(accountant, eventOf, epsilon, delta, Math.exp(b), relTol);
    }

    /**
     * Doubling from z = 1, then bisection on [z/2, z] keeping ε(hi) ≤ target: the search for accountants
     * whose evaluations are cheap (RDP, basic and advanced composition, ABLQ's closed forms).
     */
    private static double bisectNoiseMultiplier(PrivacyAccountant accountant, DoubleFunction<DpEvent> eventOf,
            double epsilon, double delta, double relTol) {
        double hi = 1.0;
        int guard = 0;
        while (!(accountant.epsilon(eventOf.apply(hi), delta) <= epsilon)) {
            hi *= 2;
            if (++guard > 40) {
                throw new IllegalArgumentException("privacy budget must be reachable but was not: no noise "
                        + "multiplier up to " + hi + " gives epsilon <= " + epsilon + " at delta = " + delta);
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
        while (hi - lo > relTol * hi) {
            double mid = 0.5 * (lo + hi);
            if (accountant.epsilon(eventOf.apply(mid), delta) <= epsilon) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /** The upper end after checking accountant.epsilon ≤ target there (stepping up by relTol if not). */
    private static double verified(PrivacyAccountant acc, DoubleFunction<DpEvent> eventOf, double epsilon,
            double delta, double z, double relTol) {
        double zz = z;
        for (int k = 0; k < 200; k++) {
            if (acc.epsilon(eventOf.apply(zz), delta) <= epsilon) {
                return zz;
            }
            zz *= 1 + relTol * (1 << Math.min(k, 20));
        }
        throw new IllegalStateException("calibration could not verify a noise multiplier near " + z + " (internal error)");
    }

    /**
     * The margin function log(ε(z)/ε), ≤ 0 exactly when the budget is met. (A δ-margin log(δ(ε; z)/δ)
     * would save the ε search per evaluation, but it is flat wherever δ(ε) sits at the discretization's
     * tail floor — large target ε — which stalls the secant; ε(z) is smooth in log z.)
     */
    private static DoubleUnaryOperator marginOf(PrivacyAccountant acc, DoubleFunction<DpEvent> eventOf, double epsilon,
            double delta) {
        return z -> logRatio(acc.epsilon(eventOf.apply(z), delta), epsilon);
    }

    private static double logRatio(double v, double target) {
        if (Double.isNaN(v)) {
            return Double.POSITIVE_INFINITY;
        }
        return v <= 0 ? Double.NEGATIVE_INFINITY : Math.log(v / target);
    }

    /**
     * The RDP-calibrated z (an upper end for every accountant whose ε is at most RDP's, in particular
     * PLD), or NaN where RDP does not apply. Bisection to 1e-6 relative on the RDP ε (microseconds).
     */
    private static double rdpBracket(PrivacyAccountant acc, DoubleFunction<DpEvent> eventOf, double epsilon,
            double delta) {
        if (!(acc instanceof PldAccountant)) {
            return Double.NaN;
        }
        // integer orders: exact finite sums, no quadrature (an upper bound on the full-grid RDP, which
        // itself bounds the PLD accountant's ε)
        RdpAccountant rdp = new RdpAccountant(RdpAccountant.integerOrders(), RdpAccountant.Conversion.IMPROVED,
                acc.relation());
        try {
            return bisectNoiseMultiplier(rdp, eventOf, epsilon, delta, 1e-6);
        } catch (IllegalArgumentException e) { // unsupported by RDP (or outside its domain): no bracket
            return Double.NaN;
        }
    }

    /** d log(margin-scale)/d log z from RDP at z (negative), or NaN. Used only to choose steps. */
    private static double rdpSlope(DoubleFunction<DpEvent> eventOf, double epsilon, double delta, double z,
            PrivacyAccountant acc) {
        try {
            RdpAccountant rdp = new RdpAccountant(RdpAccountant.integerOrders(), RdpAccountant.Conversion.IMPROVED,
                    acc.relation());
            double h = 1e-3;
            double e1 = rdp.epsilon(eventOf.apply(z), delta);
            double e2 = rdp.epsilon(eventOf.apply(z * Math.exp(h)), delta);
            return e1 > 0 && e2 > 0 ? (Math.log(e2) - Math.log(e1)) / h : Double.NaN;
        } catch (IllegalArgumentException e) { // unsupported by RDP (or outside its domain): no bracket
            return Double.NaN;
        }
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
        while (hi - lo > DEFAULT_RELATIVE_TOLERANCE * lo) {
            double mid = 0.5 * (lo + hi);
            if (accountant.epsilon(eventOf.apply(mid), delta) <= epsilon) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
