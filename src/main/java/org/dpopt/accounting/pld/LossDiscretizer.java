package org.dpopt.accounting.pld;

import java.util.function.DoublePredicate;

/**
 * Puts a continuous privacy loss, given by the closed-form tails of a {@link LossModel}, on the grid
 * l_k = k·h. The loss range is cut where each tail's P-mass falls below
 * {@link PrivacyLossDistributions#CONSTRUCTION_TAIL}; each interval's mass goes to its ends per the
 * {@link Rounding}: to the left end (optimistic), to the right end (pessimistic, plain), or split so
 * that the discretized pair dominates the original one (connect-the-dots: Doroshenko, Ghazi, Kamath,
 * Kumar and Manurangsi, "Connect the Dots: Tighter Discrete Approximations of Privacy Loss
 * Distributions", PoPETs 2022). The tails beyond the grid are handled like any truncation: pessimistic
 * → lower tail moved up to the first point, upper tail to +∞; optimistic → lower tail dropped, upper
 * tail moved down.
 */
final class LossDiscretizer {
    private LossDiscretizer() {
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
        spread(m, h, rounding, kLo, probs);
        double below = m.lowerP(kLo * h);
        double above = m.upperP(kHi * h);
        double inf = 0;
        if (rounding.isPessimistic()) {
            probs[0] += below;
            inf = above;
        } else {
            probs[n - 1] += above;
        }
        return trimmed(h, kLo, probs, inf, rounding);
    }

    /**
     * The P-mass of each grid interval (l_k, l_{k+1}], put on its ends according to the rounding. Tails
     * are evaluated on the side of the centre where they are small (so each keeps its relative
     * precision) and reused from one interval to the next.
     */
    private static void spread(LossModel m, double h, Rounding rounding, long kLo, double[] probs) {
        int n = probs.length;
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
                double toRight = toRight(massP, massQ, left, denom, margin);
                probs[i + 1] += toRight;
                probs[i] += massP - toRight;
            }
        }
    }

    /**
     * Connect-the-dots: ∫ (1 − e^{−(l − left)})/(1 − e^{−h}) dP over the interval goes to the right end,
     * i.e. (P(I) − e^{left}Q(I))/(1 − e^{−h}). The difference and the division by h each lose
     * ~log10(1/h) digits (error ≲ 1e-8·massP at h = 1e-4); the margin (1e-15/h²)·massP moves that much
     * more mass up, which can only raise the curve. e^{left}·Q(I) is taken in log space: e^{left}
     * overflows for losses above ~709, where Q(I) underflows.
     */
    private static double toRight(double massP, double massQ, double left, double denom, double margin) {
        double qPart = massQ > 0 ? Math.exp(left + Math.log(massQ)) : 0;
        double toRight = (massP - qPart) / denom + margin * massP;
        return toRight >= 0 ? Math.min(massP, toRight) : Double.isNaN(toRight) ? massP : 0; // undefined → up
    }

    /** The PMF without its zero ends, checked finite. */
    private static PrivacyLossDistribution trimmed(double h, long kLo, double[] probs, double inf, Rounding rounding) {
        int n = probs.length;
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
            throw new PldGridTooLargeException("PLD loss model must have a finite centre and scale but was " + center
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
        for (int it = 0; m.upperP(l) > PrivacyLossDistributions.CONSTRUCTION_TAIL; it++) {
            prev = l;
            step *= 2;
            l = m.center() + step;
            if (it > 1100 || !Double.isFinite(l)) {
                throw new PldGridTooLargeException("PLD loss range must be finite but its upper tail does not end");
            }
        }
        return tailEdge(prev, l, mid -> m.upperP(mid) > PrivacyLossDistributions.CONSTRUCTION_TAIL);
    }

    private static double findLow(LossModel m) {
        double step = m.scale();
        double prev = m.center();
        requireFinite(prev, step);
        double l = prev - step;
        for (int it = 0; l > m.supportLow() && m.lowerP(l) > PrivacyLossDistributions.CONSTRUCTION_TAIL; it++) {
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
        return tailEdge(prev, l, mid -> m.lowerP(mid) > PrivacyLossDistributions.CONSTRUCTION_TAIL);
    }

    /**
     * Bisection between a loss {@code heavy} whose tail beyond it is still above the construction tail and
     * a loss {@code light} whose tail is not (on either side of heavy), to a relative width 1e-9 of light
     * or 60 halvings; returns the light end, so the tail beyond it stays within the construction tail.
     */
    private static double tailEdge(double heavy, double light, DoublePredicate heavyAt) {
        for (int it = 0; it < 60 && Math.abs(light - heavy) > 1e-9 * Math.max(1, Math.abs(light)); it++) {
            double mid = 0.5 * (heavy + light);
            if (heavyAt.test(mid)) {
                heavy = mid;
            } else {
                light = mid;
            }
        }
        return light;
    }
}
