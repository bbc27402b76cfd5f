package org.dpopt.accounting.pld;

import org.dpopt.linalg.Checks;

/**
 * Closed-form facts about T Poisson-subsampled Gaussian releases (rate q, noise multiplier z, unit
 * sensitivity, add/remove-one): the exact single-step privacy curve, rounded in either direction, and
 * exact, cheap <em>lower</em> bounds for T steps — the standing guards against an accountant that
 * under-reports, and the floor of the reports' {@code epsilonLower}.
 *
 * <p><b>Single step.</b> The remove pair P = (1 − q)N(0, z²) + qN(1, z²), Q = N(0, z²) has a privacy
 * loss increasing in the output, so δ(ε) = P(X &gt; x₀) − e^ε Q(X &gt; x₀) = qΦ̄((x₀ − 1)/z) −
 * (e^ε − 1 + q)Φ̄(x₀/z) with x₀ = z² ln((e^ε − 1 + q)/q) + 1/2; the add pair (reversed) has
 * δ(ε) = Φ(x′/z)(1 − e^ε(1 − q)) − e^ε qΦ((x′ − 1)/z) with 1 − q + q e^{(2x′−1)/(2z²)} = e^{−ε} for
 * ε &lt; −ln(1 − q), and 0 beyond. The curve is the larger of the two. Normal tails come from a
 * table-and-series evaluation accurate to about 1e-13 relative, and beyond its range from the
 * Mills-ratio bounds φ(x)x/(x² + 1) ≤ Φ̄(x) ≤ φ(x)/x; every term is rounded in the requested
 * direction, so the result is a certified upper or lower bound for every z, however small.
 *
 * <p><b>T steps: test statistics.</b> For any event E of the outputs and any ordered neighbouring
 * pair, δ(ε) ≥ P(E) − e^ε Q(E) (post-processing), so ε(δ) ≥ log((P(E) − δ)/Q(E)) whenever P(E) &gt; δ.
 * With P the run that includes the differing record (each step independently with probability q,
 * mean 1 in that step) and Q the run without it:
 * <ul>
 *   <li><b>max statistic</b> E = {max_t X_t &gt; c} (remove) and its complement under the swapped pair
 *   (add): P(E) = 1 − (1 − A(c))^T with A(c) = (1 − q)Φ̄(c/z) + qΦ̄((c − 1)/z), Q(E) = 1 − Φ(c/z)^T.
 *   For T = 1 the best threshold is x₀ and the bound is the exact curve;</li>
 *   <li><b>sum statistic</b> E = {Σ_t X_t &gt; c}: Σ X ~ N(K, Tz²) with K ~ Bin(T, q) under P and N(0, Tz²)
 *   under Q — a good test for long runs with moderate noise.</li>
 * </ul>
 * Thresholds are optimized numerically; every probability is rounded in the safe direction
 * (P down, Q up; binomial mass outside the summed range added to Q and dropped from P).
 */
public final class PoissonGaussianExact {
    private PoissonGaussianExact() {
    }

    /** Relative safety on every normal tail (NormalTail is accurate to about 1e-13 relative). */
    static final double REL = 1e-11;

    private static void check(double q, double z, long steps) {
        Checks.probability("samplingProbability", q);
        Checks.positive("noiseMultiplier", z);
        Checks.atLeastOne("steps", steps);
    }

    /**
     * A certified lower bound on ε(δ) from the max statistic (both directions); exact for T = 1.
     *
     * @param q sampling probability in (0, 1]
     * @param z noise multiplier &gt; 0
     * @param steps T ≥ 1
     * @param delta δ ∈ (0, 1)
     */
    public static double maxStatisticEpsilon(double q, double z, long steps, double delta) {
        check(q, z, steps);
        Checks.delta("delta", delta);
        double best = 0;
        // scan thresholds c = z·u on a grid, then refine around the best point
        double lo = -8;
        double hi = 40 + 1 / z;
        int n = 400;
        double bestU = lo;
        for (int i = 0; i <= n; i++) {
            double u = lo + (hi - lo) * i / n;
            double v = maxStatBound(q, z, steps, delta, u * z);
            if (v > best) {
                best = v;
                bestU = u;
            }
        }
        double step = (hi - lo) / n;
        for (int r = 0; r < 3; r++) {
            double center = bestU;
            for (int i = -20; i <= 20; i++) {
                double u = center + step * i / 10;
                double v = maxStatBound(q, z, steps, delta, u * z);
                if (v > best) {
                    best = v;
                    bestU = u;
                }
            }
            step /= 10;
        }
        if (steps == 1) {
            best = Math.max(best, singleStepEpsilon(q, z, delta));
        }
        return best;
    }

    /**
     * The probabilities of the threshold tests at c, each accurate in relative terms (no complement
     * is formed by subtraction): {Φ̄(c/z), A(c), ln(1 − Φ̄(c/z)), ln(1 − A(c))} with
     * A(c) = (1 − q)Φ̄(c/z) + qΦ̄((c − 1)/z).
     */
    private static double[] tests(double q, double z, double c) {
        double upQ = NormalTail.upper(c / z);
        double upP = (1 - q) * upQ + q * NormalTail.upper((c - 1) / z);
        double lowQ = NormalTail.lower(c / z);
        double lowP = (1 - q) * lowQ + q * NormalTail.lower((c - 1) / z);
        double logLowQ = upQ < 0.5 ? Math.log1p(-upQ) : Math.log(lowQ);
        double logLowP = upP < 0.5 ? Math.log1p(-upP) : Math.log(lowP);
        return new double[] {upQ, upP, logLowQ, logLowP};
    }

    /** max over the two directions of log((P(E) − δ)/Q(E)) at threshold c (0 if P(E) ≤ δ). */
    private static double maxStatBound(double q, double z, long t, double delta, double c) {
        double[] v = tests(q, z, c);
        double tailQ = v[0];
        double tailP = v[1];
        double xQ = t * v[2]; // log of Φ(c/z)^T
        double xP = t * v[3]; // log of (1 − A)^T
        double best = 0;
        // every tail and log carries relative error ≤ REL; x = T·log(·) then carries ≤ REL·|x| (+ rounding),
        // so −expm1(x) has relative error ≤ 2·REL and exp(x) ≤ REL·(|x| + 2)
        double rP = REL * (Math.abs(xP) + 2);
        double rQ = REL * (Math.abs(xQ) + 2);
        // remove: E = {max > c}; Q(E) = 1 − Φ(c/z)^T ≤ T·Φ̄(c/z), used in log space when tiny
        if (tailP >= 1e-290) {
            double pe = -Math.expm1(xP) * (1 - 2 * REL);
            double logQe = tailQ >= 1e-200 ? Math.log(-Math.expm1(xQ) * (1 + 2 * REL))
                    : Math.log((double) t) + logUpperTail(c / z, true);
            if (pe > delta) {
                best = Math.max(best, Math.log(pe - delta) - logQe - 4 * Pmf.U * (Math.abs(logQe) + 1));
            }
        }
        // add: E = {max ≤ c} under P' = no record (Φ(c/z)^T), Q' = with record ((1 − A)^T)
        if (rP < 0.5 && rQ < 0.5) {
            double pa = Math.exp(xQ) * (1 - rQ);
            double qa = Math.exp(xP) * (1 + rP);
            if (pa > delta && qa >= 1e-290) {
                best = Math.max(best, Math.log((pa - delta) / qa));
            }
        }
        return best;
    }

    /**
     * A certified lower bound on δ(ε) from the max statistic (both directions; exact for T = 1): the
     * largest P(E) − e^ε Q(E) over the thresholds tried.
     */
    public static double maxStatisticDelta(double q, double z, long steps, double epsilon) {
        check(q, z, steps);
        if (!(epsilon >= 0)) {
            throw Checks.fail("epsilon", "non-negative", epsilon);
        }
        if (epsilon == Double.POSITIVE_INFINITY) {
            return 0;
        }
        double best = steps == 1 ? singleStepDelta(q, z, epsilon) : 0;
        double lo = -8;
        double hi = 40 + 1 / z;
        int n = 400;
        for (int i = 0; i <= n; i++) {
            double c = z * (lo + (hi - lo) * i / n);
            best = Math.max(best, maxStatDelta(q, z, steps, epsilon, c));
        }
        return best;
    }

    private static double maxStatDelta(double q, double z, long t, double epsilon, double c) {
        double[] v = tests(q, z, c);
        double tailQ = v[0];
        double tailP = v[1];
        double xQ = t * v[2];
        double xP = t * v[3];
        double best = 0;
        if (tailP >= 1e-290) {
            double pe = -Math.expm1(xP) * (1 - 2 * REL);
            double logQe = tailQ >= 1e-200 ? Math.log(-Math.expm1(xQ) * (1 + 2 * REL))
                    : Math.log((double) t) + logUpperTail(c / z, true);
            double sub = epsilon + logQe + 4 * Pmf.U * (Math.abs(epsilon + logQe) + 1);
            best = Math.max(best, pe - (sub < -740 ? Double.MIN_NORMAL : Math.exp(sub)));
        }
        double rP = REL * (Math.abs(xP) + 2);
        double rQ = REL * (Math.abs(xQ) + 2);
        if (rP < 0.5 && rQ < 0.5) {
            double pa = Math.exp(xQ) * (1 - rQ);
            double la = epsilon + xP + Math.log1p(rP) + 4 * Pmf.U * (Math.abs(epsilon + xP) + 1);
            best = Math.max(best, pa - (la < -740 ? Double.MIN_NORMAL : Math.exp(la)));
        }
        return Math.max(0, best);
    }

    /**
     * log Φ̄(x), rounded up ({@code up}) or down: NormalTail where it is accurate (x &lt; 37), else the
     * Mills-ratio bounds φ(x)·x/(x² + 1) ≤ Φ̄(x) ≤ φ(x)/x (x &gt; 0).
     */
    static double logUpperTail(double x, boolean up) {
        if (x < 37) {
            double v = NormalTail.upper(x);
            if (v >= 1e-300) {
                return Math.log(v) + (up ? 1 : -1) * (REL + 4 * Pmf.U * (Math.abs(Math.log(v)) + 1));
            }
        }
        double logPhi = -0.5 * x * x - 0.5 * Math.log(2 * Math.PI);
        double v = up ? logPhi - Math.log(x) : logPhi + Math.log(x / (x * x + 1));
        return v + (up ? 1 : -1) * 8 * Pmf.U * (Math.abs(v) + 1);
    }

    /**
     * The exact single-step curve's ε at δ (both directions), returned as the lower end of a bisection
     * bracket on a curve rounded down, hence a certified lower bound.
     */
    static double singleStepEpsilon(double q, double z, double delta) {
        return singleStepEpsilon(q, z, delta, false);
    }

    /**
     * The single-step ε at δ (max over both directions): with {@code upper} the upper end of a bisection
     * bracket on the curve rounded up (a certified upper bound, +∞ never: the curve reaches 0), else the
     * lower end on the curve rounded down (a certified lower bound).
     *
     * @param q sampling probability in (0, 1]
     * @param z noise multiplier &gt; 0
     * @param delta δ ∈ (0, 1)
     */
    public static double singleStepEpsilon(double q, double z, double delta, boolean upper) {
        check(q, z, 1);
        Checks.delta("delta", delta);
        // a NaN curve value (never expected) counts as exceeding δ for the upper bound, never for the lower
        java.util.function.DoubleUnaryOperator above = e -> {
            double d = singleStepDelta(q, z, e, upper);
            return Double.isNaN(d) ? (upper ? 1 : 0) : d;
        };
        if (!(above.applyAsDouble(0) > delta)) {
            return 0;
        }
        double hi = 1;
        while (above.applyAsDouble(hi) > delta) {
            hi *= 2;
            if (hi > 1e300) {
                return upper ? Double.POSITIVE_INFINITY : hi / 2;
            }
        }
        double lo = hi == 1 ? 0 : hi / 2;
        for (int it = 0; it < 200 && hi - lo > 1e-13 * Math.max(1, hi); it++) {
            double mid = 0.5 * (lo + hi);
            if (above.applyAsDouble(mid) > delta) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return upper ? hi : lo;
    }

    /** The exact single-step δ(ε), max over directions, rounded down (ε ≥ 0). */
    static double singleStepDelta(double q, double z, double epsilon) {
        return singleStepDelta(q, z, epsilon, false);
    }

    /**
     * The exact single-step δ(ε) (max over both directions), rounded up if {@code upper}, else down.
     *
     * @param epsilon ε ≥ 0 (+∞ gives 0)
     */
    public static double singleStepDelta(double q, double z, double epsilon, boolean upper) {
        if (!(epsilon >= 0)) {
            throw Checks.fail("epsilon", "non-negative", epsilon);
        }
        if (epsilon == Double.POSITIVE_INFINITY) {
            return 0;
        }
        double sgn = upper ? 1 : -1;
        double z2 = z * z;
        // remove: x* = z² ln((e^ε − 1 + q)/q) + 1/2; δ = qΦ̄((x*−1)/z) − (e^ε − 1 + q)Φ̄(x*/z)
        double logB = epsilon > 700 ? epsilon + Math.log1p(-(1 - q) * Math.exp(-epsilon)) : Math.log(Math.expm1(epsilon) + q);
        double x = z2 * (logB - Math.log(q)) + 0.5;
        // δ = sup over thresholds of P(X > x) − e^ε Q(X > x), attained at x*: any computed threshold gives
        // a lower bound; for the upper bound the rounding of x (|Δx| ≤ dx) can cost at most
        // dx·(p + e^ε q) at the threshold, with the densities p, q of P and Q — added below
        double dx = 8 * Pmf.U * (z2 * (Math.abs(logB) + Math.abs(Math.log(q))) + 1);
        double la = Math.log(q) + logUpperTail((x - 1) / z, upper);
        double lb = logB + logUpperTail(x / z, !upper) - sgn * 4 * Pmf.U * (Math.abs(logB) + 1);
        double a = la < -740 ? (upper ? Double.MIN_NORMAL : 0) : Math.exp(la) * (1 + sgn * 4 * Pmf.U);
        double b = lb < -740 ? (upper ? 0 : Double.MIN_NORMAL) : Math.exp(lb) * (1 - sgn * 4 * Pmf.U);
        double rem = Math.max(0, a - b);
        if (upper) {
            rem += thresholdSlack(dx, z, x, Math.log(q), epsilon);
        }
        // add: only for ε < −ln(1 − q): x' with 1 − q + q e^{(2x'−1)/(2z²)} = e^{−ε}
        double add = 0;
        double r = Math.exp(-epsilon) - 1 + q;
        if (r > 0 && q < 1) {
            double xp = z2 * Math.log(r / q) + 0.5;
            double f0 = NormalTail.lower(xp / z) * (1 + sgn * REL);
            double f1 = NormalTail.lower((xp - 1) / z) * (1 - sgn * REL);
            double ee = Math.exp(epsilon);
            add = Math.max(0, f0 * (1 - ee * (1 - q)) - ee * q * f1);
            if (upper) {
                double dxp = 8 * Pmf.U * (z2 * (Math.abs(Math.log(r)) + Math.abs(Math.log(q))) + 1);
                add += thresholdSlack(dxp, z, xp, Math.log(q), epsilon);
            }
        }
        return Math.min(1, Math.max(rem, add));
    }

    /**
     * dx·(q·φ((x − 1)/z) + e^ε·φ(x/z))/z with a 2·dx margin on x: at least dx times the sum of the two
     * pairs' densities (P ≤ (1 − q)φ(x/z)/z + qφ((x−1)/z)/z, e^ε Q ≤ e^ε φ(x/z)/z) anywhere within dx of x.
     */
    private static double thresholdSlack(double dx, double z, double x, double logQ, double epsilon) {
        double m = 2 * dx;
        double u1 = Math.max(0, Math.abs((x - 1) / z) - m / z);
        double u0 = Math.max(0, Math.abs(x / z) - m / z);
        double l1 = logQ - 0.5 * u1 * u1;
        double l0 = epsilon - 0.5 * u0 * u0;
        double mx = Math.max(l1, l0);
        if (mx == Double.NEGATIVE_INFINITY) {
            return 0; // both densities underflow to 0 at the threshold
        }
        double l = Math.log(dx) + mx + Math.log1p(Math.exp(Math.min(l1, l0) - mx)) - Math.log(z) - 0.5 * Math.log(2 * Math.PI);
        return l > 0 ? 1 : Math.exp(l) * 1.01;
    }

    /**
     * A certified lower bound on ε(δ) from the sum statistic (both directions); 0 where it is not
     * informative. T is limited to 10⁹ (the binomial sums), larger T returns 0.
     */
    public static double sumStatisticEpsilon(double q, double z, long steps, double delta) {
        check(q, z, steps);
        Checks.delta("delta", delta);
        if (steps > 1_000_000_000L || q == 1) {
            return q == 1 ? gaussianEpsilon(z / Math.sqrt(steps), delta) : 0;
        }
        return SumStatistic.epsilon(q, z, (int) steps, delta);
    }

    /** The Gaussian mechanism's ε at δ (Balle–Wang), as a lower end of a bisection bracket. */
    private static double gaussianEpsilon(double z, double delta) {
        return singleStepEpsilon(1, z, delta);
    }
}
