package org.dpopt.accounting.pld;

import java.util.function.DoubleUnaryOperator;

/**
 * Golden-section search in log scale, used to pick the free parameters (tilts, Chernoff exponents) of
 * bounds that are valid for every value of that parameter: the search only affects how tight a bound
 * is, never whether it holds, so the minimum over the points evaluated is returned (Kiefer,
 * "Sequential minimax search for a maximum", Proc. AMS, 1953).
 */
final class LogScaleSearch {
    private LogScaleSearch() {
    }

    /**
     * Golden-section search for the minimum of f on [lo, hi] in log scale; returns {argmin, min} over
     * the points evaluated (the functions searched are unimodal; any point is a valid bound). A NaN
     * value of f counts as +∞.
     */
    static double[] minimizeLog(DoubleUnaryOperator f, double lo, double hi, int iterations) {
        double a = Math.log(lo);
        double b = Math.log(hi);
        double g = (Math.sqrt(5) - 1) / 2;
        double c = b - g * (b - a);
        double d = a + g * (b - a);
        double fc = safe(f.applyAsDouble(Math.exp(c)));
        double fd = safe(f.applyAsDouble(Math.exp(d)));
        double bestX = fc < fd ? c : d;
        double best = Math.min(fc, fd);
        for (int it = 0; it < iterations; it++) {
            if (fc < fd) {
                b = d;
                d = c;
                fd = fc;
                c = b - g * (b - a);
                fc = safe(f.applyAsDouble(Math.exp(c)));
                if (fc < best) {
                    best = fc;
                    bestX = c;
                }
            } else {
                a = c;
                c = d;
                fc = fd;
                d = a + g * (b - a);
                fd = safe(f.applyAsDouble(Math.exp(d)));
                if (fd < best) {
                    best = fd;
                    bestX = d;
                }
            }
        }
        return new double[] {Math.exp(bestX), best};
    }

    private static double safe(double v) {
        return Double.isNaN(v) ? Double.POSITIVE_INFINITY : v;
    }
}
