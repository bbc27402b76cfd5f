package org.dpopt.accounting.pld;

/**
 * Chernoff bounds on the tails of the T-fold sum of a discretized loss: for any λ &gt; 0,
 * μ^{*T}(S &gt; t) ≤ M(λ)^T e^{−λt} and μ^{*T}(S &lt; t) ≤ M(−λ)^T e^{λt}, with M(λ) = Σ p_k e^{λ l_k} (valid for
 * sub-probability measures too). M is bounded from above on blocks of consecutive grid points by the
 * block's largest (for λ &gt; 0) or smallest (for λ &lt; 0) loss, so the bounds stay valid while costing
 * O(#blocks) per λ.
 */
final class Chernoff {
    private Chernoff() {
    }

    private static final int MAX_BLOCKS = 1024;

    /**
     * Grid window [kLo, kHi] outside which the T-fold sum has mass at most {@code half} per side.
     *
     * @return {kLo, kHi, 1 if the lower side was cut, 1 if the upper side was cut}
     */
    static long[] window(PrivacyLossDistribution pld, long count, double half) {
        double[] p = pld.probabilities();
        int n = p.length;
        int c = Math.max(1, (n + MAX_BLOCKS - 1) / MAX_BLOCKS);
        int nb = (n + c - 1) / c;
        double[] logMass = new double[nb];
        double[] maxLoss = new double[nb];
        double[] minLoss = new double[nb];
        int used = 0;
        for (int b = 0; b < nb; b++) {
            int from = b * c;
            int to = Math.min(n, from + c);
            double m = 0;
            for (int k = from; k < to; k++) {
                m += p[k];
            }
            if (m > 0) {
                logMass[used] = Math.log(m);
                minLoss[used] = pld.loss(from);
                maxLoss[used] = pld.loss(to - 1);
                used++;
            }
        }
        double logHalf = Math.log(half);
        double tHi = Double.POSITIVE_INFINITY;
        double tLo = Double.NEGATIVE_INFINITY;
        for (double lambda = 1e-6; lambda <= 1e7; lambda *= 1.4) {
            double up = logSumExp(logMass, maxLoss, lambda, used);
            double down = logSumExp(logMass, minLoss, -lambda, used);
            tHi = Math.min(tHi, (count * up - logHalf) / lambda);
            tLo = Math.max(tLo, (logHalf - count * down) / lambda);
        }
        double h = pld.h();
        long minK = pld.offset() * count;
        long maxK = (pld.offset() + n - 1) * count;
        long kHi = tHi / h >= maxK ? maxK : (long) Math.ceil(tHi / h);
        long kLo = tLo / h <= minK ? minK : (long) Math.floor(tLo / h);
        kHi = Math.max(kHi, kLo);
        return new long[] {kLo, kHi, kLo > minK ? 1 : 0, kHi < maxK ? 1 : 0};
    }

    private static double logSumExp(double[] logMass, double[] loss, double lambda, int used) {
        double max = Double.NEGATIVE_INFINITY;
        for (int b = 0; b < used; b++) {
            max = Math.max(max, logMass[b] + lambda * loss[b]);
        }
        double s = 0;
        for (int b = 0; b < used; b++) {
            s += Math.exp(logMass[b] + lambda * loss[b] - max);
        }
        return max + Math.log(s);
    }
}
