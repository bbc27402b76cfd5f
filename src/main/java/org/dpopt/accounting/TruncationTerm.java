package org.dpopt.accounting;

import java.util.function.DoubleUnaryOperator;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.dpopt.linalg.Checks;

/**
 * The truncation term of truncated Poisson sampling (Chua et al., NeurIPS 2024,
 * arXiv:2411.04205, Thm 3.3; our derivation in {@code theory-notes/batch-samplers.md}).
 *
 * <p>With r_B = Pr[Bin(n, q) &gt; B] the chance that one Poisson batch overflows B, the truncated and
 * untruncated ABLQ runs on the same dataset can be coupled to agree unless some batch overflows,
 * which has probability η = 1 − (1 − r_B)^T ≤ T·r_B (batches are independent). Hence for every ε
 *
 * <pre>
 *   δ_{𝒫_{b,B,T}}(ε) ≤ δ_{𝒫_{b,T}}(ε) + (1 + e^ε)·η.
 * </pre>
 */
public final class TruncationTerm {
    private TruncationTerm() {
    }

    /** r_B = Pr[Bin(n, q) &gt; B], summed term by term in log space (accurate far into the tail). */
    public static double overflowProbability(long n, double q, long maxBatch) {
        Checks.atLeastOne("n", n);
        Checks.probability("q", q);
        if (maxBatch < 0) {
            throw Checks.fail("maxBatch", "non-negative", maxBatch);
        }
        if (maxBatch >= n) {
            return 0;
        }
        if (n > Integer.MAX_VALUE) {
            throw Checks.fail("n", "at most " + Integer.MAX_VALUE, n);
        }
        if (q == 1) {
            return 1;
        }
        BinomialDistribution bin = new BinomialDistribution(null, (int) n, q);
        double mean = n * q;
        if (maxBatch + 1 >= mean) {
            return tailSum(bin, maxBatch + 1, n, +1);
        }
        return Math.max(0, 1 - tailSum(bin, maxBatch, 0, -1));
    }

    /** Σ pmf(k) from {@code start} stepping by {@code dir} towards {@code end}, from the mode outwards. */
    private static double tailSum(BinomialDistribution bin, long start, long end, int dir) {
        double sum = 0;
        for (long k = start; dir > 0 ? k <= end : k >= end; k += dir) {
            double term = Math.exp(bin.logProbability((int) k));
            sum += term;
            if (term < 1e-18 * sum || (term == 0 && sum == 0 && Math.abs(k - start) > 10)) {
                break;
            }
        }
        return Math.min(1, sum);
    }

    /** η = 1 − (1 − r_B)^T, the probability that at least one of T independent batches overflows. */
    public static double overflowProbabilityOverRun(long n, double q, long maxBatch, long steps) {
        Checks.atLeastOne("steps", steps);
        double r = overflowProbability(n, q, maxBatch);
        if (r >= 1) {
            return 1;
        }
        return -Math.expm1(steps * Math.log1p(-r));
    }

    /** The additive δ term (1 + e^ε)·η (may exceed 1, in which case the bound is vacuous). */
    public static double deltaTerm(double epsilon, long n, double q, long maxBatch, long steps) {
        if (!(epsilon >= 0)) {
            throw Checks.fail("epsilon", "non-negative", epsilon);
        }
        return (1 + Math.exp(epsilon)) * overflowProbabilityOverRun(n, q, maxBatch, steps);
    }

    /**
     * The smallest B ∈ [⌈qn⌉, n] whose term (1 + e^ε)·η is at most {@code share}·δ (binary search; η
     * is non-increasing in B), so that the rest of δ is left for the Poisson curve.
     */
    public static int maxBatchFor(int n, double q, long steps, double epsilon, double delta, double share) {
        Checks.atLeastOne("n", n);
        Checks.probability("q", q);
        Checks.atLeastOne("steps", steps);
        Checks.delta("delta", delta);
        Checks.openUnit("share", share);
        if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
            throw Checks.fail("epsilon", "finite and non-negative", epsilon);
        }
        double target = share * delta;
        int lo = (int) Math.max(0, Math.ceil(q * n) - 1); // term(lo) > target (or lo below the mean)
        int hi = n; // term(n) = 0
        while (hi - lo > 1) {
            int mid = lo + (hi - lo) / 2;
            if (deltaTerm(epsilon, n, q, mid, steps) <= target) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * The smallest ε with δ_P(ε) + (1 + e^ε)η ≤ δ. Fixed-point iteration ε ← ε_P(δ − (1 + e^ε)η) from
     * ε = 0 increases monotonically towards the smallest solution (the map is increasing and does
     * not exceed that solution); the result is then checked against the δ form and, if rounding
     * left it short, found by bisection on the δ form. +∞ if no ε qualifies.
     *
     * @param poissonDelta ε ↦ an upper bound on the untruncated curve δ_P(ε)
     * @param poissonEpsilon δ ↦ the matching ε_P(δ)
     * @param eta the overflow probability η of the whole run
     */
    public static double smallestEpsilon(DoubleUnaryOperator poissonDelta, DoubleUnaryOperator poissonEpsilon,
            double eta, double delta) {
        Checks.delta("delta", delta);
        Checks.inRange("eta", eta, 0, 1);
        if (2 * eta >= delta) {
            return Double.POSITIVE_INFINITY;
        }
        DoubleUnaryOperator g = eps -> Math.min(1, poissonDelta.applyAsDouble(eps)) + (1 + Math.exp(eps)) * eta;
        double eps = 0;
        for (int it = 0; it < 200; it++) {
            double rest = delta - (1 + Math.exp(eps)) * eta;
            if (!(rest > 0)) {
                return Double.POSITIVE_INFINITY;
            }
            double next = poissonEpsilon.applyAsDouble(rest);
            if (!(next - eps > 1e-10 * Math.max(1, eps))) {
                eps = Math.max(eps, next);
                break;
            }
            eps = next;
        }
        if (!Double.isFinite(eps)) {
            return Double.POSITIVE_INFINITY;
        }
        if (g.applyAsDouble(eps) <= delta) {
            return eps;
        }
        double hi = Math.max(eps, 1e-6);
        for (int k = 0; k < 60 && g.applyAsDouble(hi) > delta; k++) {
            hi *= 1.01;
            if ((1 + Math.exp(hi)) * eta >= delta) {
                return Double.POSITIVE_INFINITY;
            }
        }
        if (g.applyAsDouble(hi) > delta) {
            return Double.POSITIVE_INFINITY;
        }
        double lo = eps;
        for (int it = 0; it < 100 && hi - lo > 1e-10 * Math.max(1, hi); it++) {
            double mid = 0.5 * (lo + hi);
            if (g.applyAsDouble(mid) <= delta) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }
}
