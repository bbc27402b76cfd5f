package org.dpopt.audit;

/**
 * A second Clopper–Pearson implementation for tests, independent of the library's (which inverts the
 * regularized incomplete beta function): the binomial CDF is summed term by term in log space
 * (binomial coefficients as sums of logarithms) and p_U is found by bisection on P(Bin(m, p) ≤ k) = α.
 */
public final class IndependentClopperPearson {
    private IndependentClopperPearson() {
    }

    /** log C(m, k) = Σ_{i=1..k} log((m − k + i)/i), summed directly. */
    static double logChoose(long m, long k) {
        long kk = Math.min(k, m - k);
        double s = 0;
        for (long i = 1; i <= kk; i++) {
            s += Math.log((double) (m - kk + i) / i);
        }
        return s;
    }

    /** P(Bin(m, p) ≤ k) by direct summation of the pmf (log space, term ratios). */
    static double binomialCdf(long k, long m, double p) {
        if (p <= 0) {
            return 1;
        }
        if (p >= 1) {
            return k >= m ? 1 : 0;
        }
        double lr = Math.log(p) - Math.log1p(-p);
        double[] terms = new double[(int) k + 1];
        terms[0] = m * Math.log1p(-p);
        double max = terms[0];
        for (int i = 1; i <= k; i++) {
            terms[i] = terms[i - 1] + Math.log((double) (m - i + 1) / i) + lr;
            max = Math.max(max, terms[i]);
        }
        double s = 0;
        for (double t : terms) {
            s += Math.exp(t - max);
        }
        return Math.min(1, Math.exp(max + Math.log(s)));
    }

    public static double upper(long k, long m, double alpha) {
        if (k >= m) {
            return 1;
        }
        double lo = 0;
        double hi = 1;
        for (int it = 0; it < 200; it++) {
            double mid = 0.5 * (lo + hi);
            if (binomialCdf(k, m, mid) > alpha) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /** ε_lower from raw counts, written out from the (ε, δ) inequality without the library. */
    public static double epsilonLower(long tp, long fp, long tn, long fn, double alpha, double delta) {
        double a = upper(fp, fp + tn, alpha / 2);
        double b = upper(fn, fn + tp, alpha / 2);
        double e1 = 1 - delta - b > 0 ? Math.log((1 - delta - b) / a) : 0;
        double e2 = 1 - delta - a > 0 ? Math.log((1 - delta - a) / b) : 0;
        return Math.max(0, Math.max(e1, e2));
    }
}
