package org.dpopt.audit;

import org.apache.commons.math3.special.Beta;
import org.dpopt.linalg.Checks;

/**
 * Exact one-sided binomial confidence bounds (Clopper, Pearson, "The use of confidence or fiducial
 * limits illustrated in the case of the binomial", Biometrika 1934).
 *
 * <p>For k successes in m independent trials with success probability p, the upper bound at level α is
 * the p_U solving P(Bin(m, p_U) ≤ k) = α, i.e. the (1 − α)-quantile of Beta(k + 1, m − k), so that
 * P(p ≤ p_U) ≥ 1 − α for every p; p_U = 1 when k = m and p_U = 1 − α^{1/m} when k = 0. The lower bound
 * is symmetric: p_L = 1 − p_U(m − k). The quantile is found by bisection on the regularized incomplete
 * beta function I_p(k + 1, m − k) = P(Bin(m, p) ≥ k + 1), to a relative width of 1e-12, and the upper
 * end of the final bracket is returned (never below the exact bound by more than rounding).
 */
public final class ClopperPearson {
    private ClopperPearson() {
    }

    /**
     * The one-sided (1 − α) upper confidence bound on p from k successes in m trials.
     *
     * @param k successes, 0 ≤ k ≤ m
     * @param m trials, m ≥ 1
     * @param alpha α ∈ (0, 1)
     */
    public static double upper(long k, long m, double alpha) {
        Checks.atLeastOne("trials", m);
        if (k < 0 || k > m) {
            throw Checks.fail("successes", "in [0, " + m + "]", k);
        }
        Checks.openUnit("alpha", alpha);
        if (k == m) {
            return 1;
        }
        if (k == 0) {
            return -Math.expm1(Math.log(alpha) / m);
        }
        // P(Bin(m, p) <= k) = 1 - I_p(k + 1, m - k) is decreasing in p; find where it equals alpha
        double lo = (double) k / m;
        double hi = 1;
        for (int it = 0; it < 300 && hi - lo > 1e-12 * hi; it++) {
            double mid = 0.5 * (lo + hi);
            double cdf = 1 - Beta.regularizedBeta(mid, k + 1.0, (double) (m - k), 1e-15, 10_000);
            if (cdf > alpha) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /** The one-sided (1 − α) lower confidence bound on p from k successes in m trials. */
    public static double lower(long k, long m, double alpha) {
        Checks.atLeastOne("trials", m);
        if (k < 0 || k > m) {
            throw Checks.fail("successes", "in [0, " + m + "]", k);
        }
        return 1 - upper(m - k, m, alpha);
    }
}
