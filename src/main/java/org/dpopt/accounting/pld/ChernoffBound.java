package org.dpopt.accounting.pld;

import java.util.function.DoubleUnaryOperator;

/**
 * Bounds on a composition's privacy curve without any convolution. For every λ &gt; 0 and every loss s,
 * (1 − e^{ε−s})_+ ≤ c(λ)e^{λ(s−ε)} with c(λ) = λ^λ/(1+λ)^{1+λ} = max_x (1 − e^{−x}) e^{−λx}, hence
 * <pre>   δ(ε) ≤ U + c(λ)·Π_i M_i(λ)^{T_i}·e^{−λε}   </pre>
 * (U the mass at +∞, M_i the factors' moment generating functions, rounded up). Any λ gives a valid
 * bound; λ is chosen by a log-scale search. This is the Chernoff bound of the privacy loss random
 * variable (Abadi et al., "Deep Learning with Differential Privacy", ACM CCS 2016, moments accountant;
 * in the PLD form of Koskela, Jälkö and Honkela, "Computing Tight Differential Privacy Guarantees Using
 * FFT", AISTATS 2020). It is the fallback when no FFT window fits, and a second upper bound beside it.
 */
final class ChernoffBound {
    private ChernoffBound() {
    }

    /** log of λ^λ/(1+λ)^{1+λ} = max_x (1 − e^{−x}) e^{−λx}. */
    static double logConstant(double lambda) {
        return lambda * Math.log(lambda) - (1 + lambda) * Math.log1p(lambda);
    }

    /** An upper bound on δ(ε) of {@code c}, minimized over λ (any λ is valid). */
    static double delta(Composition c, double epsilon) {
        double u = c.infinityMass(1);
        if (c.emptyFinite()) {
            return u;
        }
        DoubleUnaryOperator f = lam -> c.logMgf(lam, 1) - lam * epsilon + logConstant(lam);
        double best = LogScaleSearch.minimizeLog(f, 1e-6, Composition.MAX_TILT, 36)[1];
        return Math.min(1, u + Math.exp(best));
    }

    /** The ε of the bound at δ (an upper bound on ε) and its minimizing λ; {+∞, NaN} if none. */
    static double[] epsilon(Composition c, double delta) {
        double u = c.infinityMass(1);
        double rest = delta - u;
        if (!(rest > 0)) {
            return new double[] {Double.POSITIVE_INFINITY, Double.NaN};
        }
        if (c.emptyFinite()) {
            return new double[] {0, Composition.MIN_TILT};
        }
        double logRest = Math.log(rest);
        DoubleUnaryOperator f = lam -> (c.logMgf(lam, 1) + logConstant(lam) - logRest) / lam;
        double[] m = LogScaleSearch.minimizeLog(f, 1e-6, Composition.MAX_TILT, 36);
        return new double[] {m[1] + 4 * Pmf.U * (Math.abs(m[1]) + 1), m[0]};
    }
}
