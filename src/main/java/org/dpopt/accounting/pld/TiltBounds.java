package org.dpopt.accounting.pld;

/**
 * Turns one {@link Tilt} into rigorous bounds on the privacy curve of a composition (pessimistic
 * measure: upper bounds; optimistic measure: lower bounds), charging every error in the safe direction.
 *
 * <p>Write F for the finite part of the composition and U for its mass at +∞, so that
 * δ(ε) = U + Σ_{l_k &gt; ε} F(l_k)(1 − e^{ε−l_k}). A window bin gives F(l_k) = C e^{−λ l_k} y_k with
 * C = e^{logScale ± ξ}. The computed ỹ differs from y by at most e2 in ℓ2, so by Cauchy–Schwarz with the
 * weights e^{−λ l}, the bins from index k up change δ by at most C·e2·e^{−λ l_k}/sqrt(1 − e^{−2λh})
 * (the <em>error charge</em>). Mass above the window is charged by a Chernoff bound (pessimistic) and
 * aliased tilted mass A by C e^{2ξ}·A·c(λ)·e^{−λε} (optimistic), with c(λ) as in {@link ChernoffBound}.
 * The method is that of Koskela, Jälkö and Honkela ("Computing Tight Differential Privacy Guarantees
 * Using FFT", AISTATS 2020) with exponential tilting added so that the FFT's round-off is small relative
 * to δ rather than to the largest bin.
 */
final class TiltBounds {
    private TiltBounds() {
    }

    /** The first grid index k with k·h &gt; ε (exactly, in floating point). */
    private static long firstAbove(double epsilon, double h) {
        long first = (long) Math.floor(epsilon / h) + 1; // first grid index with loss > ε (up to rounding)
        while ((first - 1) * h > epsilon) {
            first--;
        }
        while (first * h <= epsilon) {
            first++;
        }
        return first;
    }

    /**
     * Bound on the window's bin k (grid index ka + w) in untilted units: pessimistic
     * C e^{ξ} e^{−λl}·max(ỹ, 0) rounded up (capped at 1); optimistic C e^{−ξ} e^{−λl}·max(ỹ, 0) rounded
     * down.
     */
    private static double bin(Tilt t, int w, double h, boolean up) {
        double v = t.y[w];
        if (!(v > 0)) {
            return 0;
        }
        double loss = (t.ka + w) * h;
        double ex = t.logScale + (up ? t.xi : -t.xi) - t.lambda * loss;
        double rel = Pmf.U * (3 * Math.abs(ex) + 3 * Math.abs(t.lambda * loss) + 6);
        double lv = ex + Math.log(v);
        if (lv > 0) {
            return up ? 1 : Math.exp(ex) * v * (1 - rel);
        }
        double f = Math.exp(lv);
        return up ? f * (1 + rel) : f * (1 - rel);
    }

    /** The ℓ2 error charge for bins from grid index k up: C e^{±ξ} e2 e^{−λ l_k} / sqrt(1 − e^{−2λh}) (capped). */
    private static double errorCharge(Tilt t, long k, double h, boolean up, double factor) {
        double l = t.logScale + (up ? t.xi : -t.xi) + Math.log(factor * t.e2) - t.lambda * (k * h) + t.logWeightNorm;
        l += 4 * Pmf.U * (Math.abs(l) + Math.abs(t.lambda * k * h) + 2);
        return l > 0 ? Double.POSITIVE_INFINITY : Math.exp(l);
    }

    /** C e^{ξ}·A·c(λ)·e^{−λε}: the most that aliased tilted mass A can add to δ(ε). */
    private static double aliasCharge(Tilt t, double epsilon) {
        if (t.alias == 0) {
            return 0;
        }
        double l = t.logScale + t.xi + t.xi + Math.log(t.alias) + ChernoffBound.logConstant(t.lambda)
                - t.lambda * epsilon;
        l += 4 * Pmf.U * (Math.abs(l) + Math.abs(t.lambda * epsilon) + 2);
        return l > 0 ? Double.POSITIVE_INFINITY : Math.exp(l);
    }

    /** Σ over the window's bins from index {@code first} of bin·(1 − e^{ε−l}), before the sum's slack. */
    private static double hockeyStick(Tilt t, long first, double h, double epsilon, boolean up) {
        double acc = 0;
        int w0 = (int) Math.max(0, Math.min(t.y.length, first - t.ka));
        for (int w = w0; w < t.y.length; w++) {
            double loss = (t.ka + w) * h;
            acc += bin(t, w, h, up) * -Math.expm1(epsilon - loss);
        }
        return acc;
    }

    /** Upper bound on δ(ε) from one pessimistic tilt; +∞ if the window does not reach down to ε. */
    static double deltaUpper(Composition c, Tilt t, double epsilon) {
        double u = c.infinityMass(1);
        long first = firstAbove(epsilon, c.h);
        if (first < t.ka) {
            return Double.POSITIVE_INFINITY;
        }
        double acc = hockeyStick(t, first, c.h, epsilon, true);
        acc *= 1 + 4 * Pmf.U * (t.y.length + 4);
        double err = errorCharge(t, first, c.h, true, 1);
        return Math.min(1, u + t.tailAbove + acc + err);
    }

    /** Lower bound on δ(ε) from one optimistic tilt (at least 0). */
    static double deltaLower(Composition c, Tilt t, double epsilon) {
        double u = c.infinityMass(-1);
        long first = firstAbove(epsilon, c.h);
        double acc = hockeyStick(t, first, c.h, epsilon, false);
        acc *= 1 - 4 * Pmf.U * (t.y.length + 4);
        long k0 = Math.max(first, t.ka);
        double err = errorCharge(t, k0, c.h, true, 2) + aliasCharge(t, epsilon);
        return Math.max(0, u + acc - err);
    }

    /**
     * From one pessimistic tilt: the smallest ε ≥ l_ka − h with δ_upper(ε) ≤ δ, scanning the window
     * from the top (on [l_{k−1}, l_k) the bound is A_k + C − e^{ε−l_k}B_k, solved in closed form);
     * {@code out[1]} is the share of the bound at the answer made of error charges.
     */
    static double[] epsilonUpper(Composition c, Tilt t, double delta) {
        return scan(c, t, delta, true);
    }

    /**
     * From one optimistic tilt: sup{ε : δ_lower(ε) &gt; δ} over the window (a valid lower bound on the
     * ε of the measure), or 0 if δ_lower never exceeds δ there.
     */
    static double epsilonLower(Composition c, Tilt t, double delta) {
        return scan(c, t, delta, false)[0];
    }

    /** g_k = exp(logScale ± ξ − λ l_k) is recomputed exactly every SYNC bins, multiplied by e^{λh} between. */
    private static final int SYNC = 256;

    /**
     * Per-bin factors of the scan: the rounding direction of the bins ({@code gUp}) and the charges per
     * unit g — the ℓ2 error (·2 in the lower mode, for the clamped negatives) and, lower mode only, the
     * aliased mass at the segment's left end (its largest value on the segment).
     */
    private record ScanRates(double gUp, double errPerG, double aliasPerG) {
        static ScanRates of(Tilt t, double h, boolean up) {
            int len = t.y.length;
            double stepUp = Math.exp(t.lambda * h);
            double sx = up ? t.xi : -t.xi;
            // the relative error of g (exp's argument rounding, at most SYNC multiplications) is covered by rel
            double maxArg = Math.max(Math.abs(t.logScale + sx - t.lambda * (t.ka * h)),
                    Math.abs(t.logScale + sx - t.lambda * ((t.ka + len - 1) * h)));
            double maxLam = t.lambda * Math.max(Math.abs(t.ka * h), Math.abs((t.ka + len - 1) * h));
            double rel = Pmf.U * (3 * maxArg + 3 * maxLam + 2.0 * SYNC + 8);
            double gUp = up ? 1 + rel : 1 - rel; // the direction bins are rounded in
            double gErr = 1 + rel; // charges are always rounded up
            double errPerG = (up ? 1 : 2) * t.e2 * Math.exp(t.logWeightNorm + (up ? 0 : 2 * t.xi)) * gErr;
            double aliasPerG = up || t.alias == 0 ? 0
                    : t.alias * Math.exp(ChernoffBound.logConstant(t.lambda) + 2 * t.xi) * stepUp * gErr;
            return new ScanRates(gUp, errPerG, aliasPerG);
        }
    }

    /**
     * The segment scan shared by both modes. Upper: A rounded up, B down, charges added; lower: A down,
     * B up, charges subtracted (on each segment at their values at its left end, their largest).
     */
    private static double[] scan(Composition c, Tilt t, double delta, boolean up) {
        double h = c.h;
        double base = up ? c.infinityMass(1) + t.tailAbove : c.infinityMass(-1);
        if (base > delta) {
            return new double[] {Double.POSITIVE_INFINITY, 1};
        }
        int len = t.y.length;
        double eh = Math.exp(-h);
        double stepUp = Math.exp(t.lambda * h); // g_{k−1} = g_k·e^{λh}
        double sx = up ? t.xi : -t.xi;
        ScanRates r = ScanRates.of(t, h, up);
        double a = 0;
        double b = 0;
        double slack = 4 * Pmf.U * (len + 4);
        double g = 0;
        for (int w = len - 1; w >= 0; w--) {
            long k = t.ka + w;
            double lk = k * h;
            g = (len - 1 - w) % SYNC == 0 ? Math.exp(t.logScale + sx - t.lambda * lk) : g * stepUp;
            double v = t.y[w];
            double f = v > 0 ? v * g * r.gUp() : 0;
            if (up && f > 1) {
                f = 1; // a bin's mass is at most 1
            }
            if (!(f >= 0)) {
                f = up ? 1 : 0; // g overflowed: no information in this bin
            }
            a += f;
            b = up ? b * eh * (1 - 2 * Pmf.U) + f * (1 - 4 * Pmf.U) : b * eh + f;
            double err = g * (r.errPerG() + r.aliasPerG());
            if (Double.isNaN(err)) {
                err = Double.POSITIVE_INFINITY;
            }
            double aS = up ? a * (1 + slack) : a * (1 - slack);
            double bS = up ? b * (1 - slack) : b * (1 + slack);
            double cc = base + aS + (up ? err : -err);
            if (cc - eh * bS > delta) {
                double eps = bS > 0 ? lk + Math.log((cc - delta) / bS) : lk;
                eps = Math.max(Math.min(eps, lk), lk - h);
                eps += (up ? 4 : -4) * Pmf.U * (Math.abs(eps) + 1);
                return new double[] {up ? eps : Math.max(0, eps), (err + t.tailAbove) / delta};
            }
        }
        return new double[] {up ? t.ka * h - h : 0, 1};
    }
}
