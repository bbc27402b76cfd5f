package org.dpopt.accounting.pld;

/**
 * Chernoff bounds on the tails of the T-fold sum of a discretized loss: for any λ &gt; 0,
 * μ^{*T}(S &gt; t) ≤ M(λ)^T e^{−λt} and μ^{*T}(S &lt; t) ≤ M(−λ)^T e^{λt}, with M(λ) = Σ p_k e^{λ l_k} (valid for
 * sub-probability measures too). M is evaluated exactly on the grid as a polynomial in e^{±λh} by a
 * scaled Horner scheme (no overflow, no exponential per point). Any λ gives a valid bound; λ is
 * chosen by golden-section search (the bound is unimodal in λ).
 */
final class Chernoff {
    private Chernoff() {
    }

    /**
     * Grid window [kLo, kHi] outside which the T-fold sum has mass at most {@code half} per side.
     *
     * @return {kLo, kHi, 1 if the lower side was cut, 1 if the upper side was cut}
     */
    static long[] window(PrivacyLossDistribution pld, long count, double half) {
        double[] all = pld.probabilities();
        // restrict to the support: the Horner sums are dominated by their end terms, which must be > 0
        int first = 0;
        while (first < all.length - 1 && !(all[first] > 0)) {
            first++;
        }
        int last = all.length - 1;
        while (last > first && !(all[last] > 0)) {
            last--;
        }
        double[] p = java.util.Arrays.copyOfRange(all, first, last + 1);
        double h = pld.h();
        double lowLoss = pld.loss(first);
        double highLoss = pld.loss(last);
        double logHalf = Math.log(half);
        // upper tail: t(λ) = (T log M(λ) − log half)/λ, minimized
        java.util.function.DoubleUnaryOperator upper = lam -> (count * logMgf(p, h, lowLoss, highLoss, lam) - logHalf) / lam;
        // lower tail: t(λ) = (log half − T log M(−λ))/λ, maximized (minimize the negative)
        java.util.function.DoubleUnaryOperator lower = lam -> -(logHalf - count * logMgf(p, h, lowLoss, highLoss, -lam)) / lam;
        double tHi = minimize(upper);
        double tLo = -minimize(lower);
        long minK = (pld.offset() + first) * count;
        long maxK = (pld.offset() + last) * count;
        long kHi = tHi / h >= maxK ? maxK : (long) Math.ceil(tHi / h);
        long kLo = tLo / h <= minK ? minK : (long) Math.floor(tLo / h);
        kHi = Math.max(kHi, kLo);
        return new long[] {kLo, kHi, kLo > minK ? 1 : 0, kHi < maxK ? 1 : 0};
    }

    /**
     * min over λ &gt; 0 of f(λ) = (T·K(λ) − c)/λ with K convex (a cumulant generating function): the
     * derivative's sign is that of T(λK′ − K) + c, which is non-decreasing in λ, so f is unimodal and
     * golden-section search on log λ ∈ [log 1e-6, log 1e7] finds its minimum. Returns a value attained
     * (any λ gives a valid bound, so inexact convergence is safe).
     */
    private static double minimize(java.util.function.DoubleUnaryOperator f) {
        double a = Math.log(1e-6);
        double b = Math.log(1e7);
        double g = (Math.sqrt(5) - 1) / 2;
        double c = b - g * (b - a);
        double d = a + g * (b - a);
        double fc = f.applyAsDouble(Math.exp(c));
        double fd = f.applyAsDouble(Math.exp(d));
        double best = Math.min(fc, fd);
        for (int it = 0; it < 28; it++) {
            if (fc < fd) {
                b = d;
                d = c;
                fd = fc;
                c = b - g * (b - a);
                fc = f.applyAsDouble(Math.exp(c));
                best = Math.min(best, fc);
            } else {
                a = c;
                c = d;
                fc = fd;
                d = a + g * (b - a);
                fd = f.applyAsDouble(Math.exp(d));
                best = Math.min(best, fd);
            }
        }
        return best;
    }

    /** log Σ p_k e^{λ l_k}, l_k = lowLoss + k·h, by Horner in e^{−|λ|h} (scaled at the dominant end). */
    static double logMgf(double[] p, double h, double lowLoss, double highLoss, double lambda) {
        double r = Math.exp(-Math.abs(lambda) * h);
        double acc = 0;
        if (lambda > 0) {
            // Σ p_k e^{λ(l_k − l_max)} = Σ p_k r^{n−1−k}: Horner from k = 0 upwards
            for (double v : p) {
                acc = acc * r + v;
            }
            return lambda * highLoss + Math.log(acc);
        }
        // Σ p_k e^{λ(l_k − l_min)} = Σ p_k r^{k}: Horner from the top down
        for (int k = p.length - 1; k >= 0; k--) {
            acc = acc * r + p[k];
        }
        return lambda * lowLoss + Math.log(acc);
    }
}
