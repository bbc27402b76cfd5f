package org.dpopt.accounting;

import java.util.function.DoubleFunction;
import java.util.function.DoubleUnaryOperator;

/**
 * Noise calibration for the PLD accountant, whose evaluations cost FFTs. ε(z) is only assumed to be
 * non-increasing in z up to numerical noise, and nothing relies on it beyond the bracket:
 * <ol>
 *   <li>an upper end from the Rényi-DP accountant at integer orders where it supports the event
 *   (microseconds per evaluation; its ε is at least the PLD accountant's, so the RDP-calibrated z already
 *   meets the budget under PLD), else by doubling from 1;</li>
 *   <li>a lower end by Newton steps in (log z, log margin) with the slope taken from RDP;</li>
 *   <li>a safeguarded secant search (Illinois: Dowell and Jarratt, "A modified regula falsi method for
 *   computing the root of an equation", BIT 11, 1971) whose iterates stay inside the bracket, on the
 *   margin log(ε(z)/ε_target).</li>
 * </ol>
 * The upper end is returned only after {@code accountant.epsilon(event(z), δ) ≤ ε} has been verified at
 * it.
 */
final class SecantCalibration {

    private static final int MAX_EVALUATIONS = 80;

    private final PrivacyAccountant accountant;
    private final DoubleFunction<DpEvent> eventOf;
    private final double epsilon;
    private final double delta;
    private final double relTol;
    private final DoubleUnaryOperator margin;
    private double lo = Double.NaN;
    private double fLo = Double.NaN;
    private double hi;
    private double fHi = Double.NaN;

    private SecantCalibration(PrivacyAccountant accountant, DoubleFunction<DpEvent> eventOf, double epsilon,
            double delta, double relTol) {
        this.accountant = accountant;
        this.eventOf = eventOf;
        this.epsilon = epsilon;
        this.delta = delta;
        this.relTol = relTol;
        this.margin = z -> logRatio(accountant.epsilon(eventOf.apply(z), delta), epsilon);
    }

    /** The verified upper end of the final bracket. */
    static double noiseMultiplier(PrivacyAccountant accountant, DoubleFunction<DpEvent> eventOf, double epsilon,
            double delta, double relTol) {
        SecantCalibration s = new SecantCalibration(accountant, eventOf, epsilon, delta, relTol);
        s.upperEnd();
        if (!s.lowerEnd()) {
            return s.verified(s.hi); // essentially no noise needed
        }
        return s.verified(s.illinois());
    }

    /**
     * The margin log(ε(z)/ε), ≤ 0 exactly when the budget is met. (A δ-margin log(δ(ε; z)/δ) would save
     * the ε search per evaluation, but it is flat wherever δ(ε) sits at the discretization's tail floor —
     * large target ε — which stalls the secant; ε(z) is smooth in log z.)
     */
    private static double logRatio(double v, double target) {
        if (Double.isNaN(v)) {
            return Double.POSITIVE_INFINITY;
        }
        return v <= 0 ? Double.NEGATIVE_INFINITY : Math.log(v / target);
    }

    /** (1) A certified upper end: from RDP where it applies, else by doubling from 1. */
    private void upperEnd() {
        hi = rdpBracket();
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
                    throw BisectionCalibration.unreachable(hi, epsilon, delta);
                }
                fHi = margin.applyAsDouble(hi);
            }
        }
    }

    /** (2) A lower end with margin &gt; 0: Newton steps in log z with the RDP slope (or halving); false if none. */
    private boolean lowerEnd() {
        double slope = rdpSlope(hi);
        int evaluations = 0;
        double z = hi;
        double fz = fHi;
        while (Double.isNaN(lo)) {
            double step = fz == Double.NEGATIVE_INFINITY || !(slope < 0) ? Math.log(0.5)
                    : Math.max(Math.log(0.25), Math.min(-1e-4, fz / -slope * 1.05 - relTol));
            double next = z * Math.exp(step);
            if (next < 1e-12 || ++evaluations > 60) {
                return false;
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
        return true;
    }

    /** (3) Illinois (safeguarded secant) in log z on [lo, hi], margin(lo) &gt; 0 ≥ margin(hi); the upper end. */
    private double illinois() {
        double a = Math.log(lo);
        double b = Math.log(hi);
        double fa = fLo;
        double fb = fHi;
        int side = 0;
        for (int it = 0; it < MAX_EVALUATIONS && Math.exp(b) - Math.exp(a) > relTol * Math.exp(b); it++) {
            double c = secantPoint(a, b, fa, fb);
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
        return Math.exp(b);
    }

    /**
     * The secant iterate, kept inside, at least half a tolerance from the ends: a secant step that lands
     * on an end means the root is within the tolerance of it, so test just beside it.
     */
    private double secantPoint(double a, double b, double fa, double fb) {
        double c;
        if (Double.isFinite(fa) && Double.isFinite(fb) && fa != fb) {
            c = (a * fb - b * fa) / (fb - fa);
        } else {
            c = 0.5 * (a + b);
        }
        double minGap = 0.5 * relTol;
        if (Double.isNaN(c)) {
            c = 0.5 * (a + b);
        }
        c = Math.max(a + minGap, Math.min(b - minGap, c));
        if (!(c > a && c < b)) {
            c = 0.5 * (a + b);
        }
        return c;
    }

    /** The upper end after checking accountant.epsilon ≤ target there (stepping up by relTol if not). */
    private double verified(double z) {
        double zz = z;
        for (int k = 0; k < 200; k++) {
            if (accountant.epsilon(eventOf.apply(zz), delta) <= epsilon) {
                return zz;
            }
            zz *= 1 + relTol * (1 << Math.min(k, 20));
        }
        throw new IllegalStateException("calibration could not verify a noise multiplier near " + z + " (internal error)");
    }

    private RdpAccountant integerOrderRdp() {
        return new RdpAccountant(RdpAccountant.integerOrders(), RdpAccountant.Conversion.IMPROVED,
                accountant.relation());
    }

    /**
     * The RDP-calibrated z (an upper end for every accountant whose ε is at most RDP's, in particular
     * PLD), or NaN where RDP does not apply. Bisection to 1e-6 relative on the RDP ε (microseconds). The
     * integer orders give exact finite sums, no quadrature (an upper bound on the full-grid RDP, which
     * itself bounds the PLD accountant's ε).
     */
    private double rdpBracket() {
        try {
            return BisectionCalibration.noiseMultiplier(integerOrderRdp(), eventOf, epsilon, delta, 1e-6);
        } catch (IllegalArgumentException e) { // unsupported by RDP (or outside its domain): no bracket
            return Double.NaN;
        }
    }

    /** d log(margin-scale)/d log z from RDP at z (negative), or NaN. Used only to choose steps. */
    private double rdpSlope(double z) {
        try {
            RdpAccountant rdp = integerOrderRdp();
            double h = 1e-3;
            double e1 = rdp.epsilon(eventOf.apply(z), delta);
            double e2 = rdp.epsilon(eventOf.apply(z * Math.exp(h)), delta);
            return e1 > 0 && e2 > 0 ? (Math.log(e2) - Math.log(e1)) / h : Double.NaN;
        } catch (IllegalArgumentException e) { // unsupported by RDP (or outside its domain): no bracket
            return Double.NaN;
        }
    }
}
