package org.dpopt.accounting.pld;

import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * The sum-statistic lower bound on ε(δ) of T Poisson-subsampled Gaussian steps (rate q &lt; 1, noise
 * multiplier z): for the event E = {Σ_t X_t &gt; c}, Σ X ~ N(K, Tz²) with K ~ Bin(T, q) under the run that
 * includes the differing record and N(0, Tz²) under the run without it, and δ(ε) ≥ P(E) − e^ε Q(E) by
 * post-processing, so ε(δ) ≥ log((P(E) − δ)/Q(E)) (and likewise for the complement under the swapped
 * pair). The binomial mass beyond ±10 standard deviations is dropped from P and added to Q; every normal
 * tail is rounded in the safe direction. A good test for long runs with moderate noise.
 */
final class SumStatistic {
    private SumStatistic() {
    }

    /** max over thresholds c and both directions of the bound; 0 where it is not informative. */
    static double epsilon(double q, double z, int t, double delta) {
        BinomialDistribution bin = new BinomialDistribution(null, t, q);
        double mean = t * q;
        double sd = Math.sqrt(t * q * (1 - q));
        int kLo = (int) Math.max(0, Math.floor(mean - 10 * sd - 2));
        int kHi = (int) Math.min(t, Math.ceil(mean + 10 * sd + 2));
        int len = kHi - kLo + 1;
        double[] w = new double[len];
        double kept = 0;
        for (int k = kLo; k <= kHi; k++) {
            w[k - kLo] = Math.exp(bin.logProbability(k));
            kept += w[k - kLo];
        }
        double outside = Math.max(0, 1 - kept) + 1e-12; // binomial mass not summed (upper bound)
        double s = z * Math.sqrt(t);
        double scale = Math.sqrt(s * s + sd * sd); // spread of Σ X under P
        double best = 0;
        // thresholds c = mean + scale·u: a coarse scan of u, then two refinements around the best
        double bestU = 0;
        double step = 0.25;
        for (int i = -20; i <= 60; i++) {
            double v = bound(w, kLo, s, mean + scale * i * step, delta, outside);
            if (v > best) {
                best = v;
                bestU = i * step;
            }
        }
        for (int r = 0; r < 2; r++) {
            double center = bestU;
            step /= 8;
            for (int i = -8; i <= 8; i++) {
                double u = center + i * step;
                double v = bound(w, kLo, s, mean + scale * u, delta, outside);
                if (v > best) {
                    best = v;
                    bestU = u;
                }
            }
        }
        return best;
    }

    private static double bound(double[] w, int kLo, double s, double c, double delta, double outside) {
        double pUp = 0;
        double pLow = 0;
        for (int j = 0; j < w.length; j++) {
            double k = kLo + j;
            pUp += w[j] * NormalTail.upper((c - k) / s);
            pLow += w[j] * NormalTail.lower((c - k) / s);
        }
        double best = 0;
        // remove: E = {Σ > c}: P(E) ≥ pUp (dropped mass only lowers it), Q(E) = Φ̄(c/s)
        double pe = pUp * (1 - PoissonGaussianExact.REL);
        if (pe > delta) {
            double logQe = PoissonGaussianExact.logUpperTail(c / s, true);
            best = Math.max(best, Math.log(pe - delta) - logQe - 4 * Pmf.U * (Math.abs(logQe) + 1));
        }
        // add: E = {Σ ≤ c}: P'(E) = Φ(c/s), Q'(E) ≤ pLow + outside
        double pa = NormalTail.lower(c / s) * (1 - PoissonGaussianExact.REL);
        double qa = (pLow + outside) * (1 + PoissonGaussianExact.REL);
        if (pa > delta && qa >= 1e-290) {
            best = Math.max(best, Math.log((pa - delta) / qa));
        }
        return best;
    }
}
