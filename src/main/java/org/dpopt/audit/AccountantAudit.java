package org.dpopt.audit;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.linalg.Checks;

/**
 * A Monte-Carlo audit of the accountants on T Poisson-subsampled Gaussian releases (rate q, noise
 * multiplier z, unit sensitivity, add/remove-one): the hockey-stick divergence is estimated by
 * sampling the privacy-loss random variable, and every certified upper bound must lie above the
 * estimate's lower confidence limit, every certified lower bound below its upper confidence limit.
 * Depends only on the public accounting API.
 *
 * <p><b>Estimator.</b> For an ordered pair (P, Q) with privacy loss L = ln(dP/dQ), δ(ε) = E_P[(1 −
 * e^{ε−S})_+] where S is the sum of the T per-step losses under P (the hockey-stick identity
 * H_{e^ε}(P‖Q) = E_P[(1 − e^{ε−L})_+]). Removal: a step's output is X ~ (1 − q)N(0, z²) + qN(1, z²) and
 * its loss L(X) = ln(1 − q + q e^{(2X−1)/(2z²)}); addition: X ~ N(0, z²) and loss −L(X). Each sample of
 * Y = (1 − e^{ε−S})_+ ∈ [0, 1] needs T draws; n independent samples give the mean Ȳ and the unbiased
 * variance V_n.
 *
 * <p><b>Confidence interval.</b> The empirical-Bernstein bound (A. Maurer, M. Pontil, "Empirical
 * Bernstein Bounds and Sample Variance Penalization", COLT 2009, arXiv:0907.3740, Thm. 4): for i.i.d.
 * Y_i ∈ [0, 1] and n ≥ 2, with probability at least 1 − α,
 * <pre>   E Y ≥ Ȳ − sqrt(2 V_n ln(2/α)/n) − 7 ln(2/α)/(3(n − 1)),   </pre>
 * and symmetrically for the upper limit. A sound upper bound δ_up(ε) fails the audit only with
 * probability at most α per check (the true δ is above the lower limit with probability ≥ 1 − α, and
 * δ_up ≥ δ); with m checks a false alarm has probability at most m·α (union bound).
 *
 * <p><b>Checks</b> per configuration, direction and ε (ε chosen where the PLD bound gives δ of
 * 10⁻¹, 10⁻², 10⁻³, and ε = 0): PLD upper ≥ LCL, RDP upper ≥ LCL, and PLD's certified lower bound
 * (for the worse direction) ≤ the larger of the two directions' UCLs.
 */
public final class AccountantAudit {
    private AccountantAudit() {
    }

    /** One mechanism: T steps of the Poisson(q)-subsampled Gaussian with noise multiplier z. */
    public record Config(double noiseMultiplier, double samplingRate, long steps) {
        /** Validates. */
        public Config {
            Checks.positive("noiseMultiplier", noiseMultiplier);
            Checks.probability("samplingRate", samplingRate);
            Checks.atLeastOne("steps", steps);
        }

        /** The accounted event. */
        public DpEvent event() {
            return new SelfComposedEvent(new PoissonSampledEvent(samplingRate, new GaussianEvent(noiseMultiplier)), steps);
        }
    }

    /** The Monte-Carlo estimate of δ(ε) of one direction: mean and confidence limits. */
    public record Estimate(double mean, double lower, double upper, long samples, double alpha) {
    }

    /**
     * One audited point: both directions' estimates and the three bounds.
     *
     * @param passed PLD upper ≥ both LCLs, RDP upper ≥ both LCLs, PLD lower ≤ the larger UCL
     */
    public record Check(Config config, double epsilon, Estimate remove, Estimate add, double pldUpper, double pldLower,
            double rdpUpper, boolean passed) {
    }

    /**
     * Estimates δ(ε) for one direction by plain Monte Carlo with the empirical-Bernstein interval.
     *
     * @param remove removal direction (else addition)
     * @param samples n ≥ 2
     * @param alpha one-sided miscoverage α ∈ (0, 1) of each limit
     */
    public static Estimate estimate(Config c, double epsilon, boolean remove, int samples, double alpha,
            UniformRandomProvider rng) {
        Checks.notNull("config", c);
        if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
            throw Checks.fail("epsilon", "finite and non-negative", epsilon);
        }
        Checks.atLeast("samples", samples, 2);
        Checks.openUnit("alpha", alpha);
        Checks.notNull("rng", rng);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        double z = c.noiseMultiplier();
        double q = c.samplingRate();
        double twoZ2 = 2 * z * z;
        double logQ = Math.log(q);
        double log1mQ = Math.log1p(-q);
        long t = c.steps();
        double mean = 0;
        double m2 = 0;
        for (int i = 0; i < samples; i++) {
            double s = 0;
            for (long k = 0; k < t; k++) {
                double x = z * g.sample();
                if (remove && (q == 1 || rng.nextDouble() < q)) {
                    x += 1;
                }
                // L(x) = ln(1 − q + q e^{u}), u = (2x − 1)/(2z²), as a log-sum-exp (exact for q = 1 and any u)
                double u = (2 * x - 1) / twoZ2;
                double loss;
                if (q == 1) {
                    loss = u;
                } else {
                    double b = logQ + u;
                    loss = Math.max(log1mQ, b) + Math.log1p(Math.exp(-Math.abs(log1mQ - b)));
                }
                s += remove ? loss : -loss;
            }
            double y = s > epsilon ? -Math.expm1(epsilon - s) : 0;
            // Welford
            double d = y - mean;
            mean += d / (i + 1);
            m2 += d * (y - mean);
        }
        double var = samples > 1 ? m2 / (samples - 1) : 0;
        double l = Math.log(2 / alpha);
        double half = Math.sqrt(2 * var * l / samples) + 7 * l / (3.0 * (samples - 1));
        return new Estimate(mean, Math.max(0, mean - half), Math.min(1, mean + half), samples, alpha);
    }

    /**
     * Audits the accountants on each configuration at ε where PLD's δ is 10⁻¹, 10⁻², 10⁻³ (where finite and
     * positive) and at ε = 0. The random stream is consumed in a fixed order, so a seeded generator makes the
     * audit reproducible.
     */
    public static List<Check> audit(List<Config> configs, int samples, double alpha, UniformRandomProvider rng) {
        return audit(configs, samples, Long.MAX_VALUE, alpha, rng);
    }

    /**
     * As {@link #audit(List, int, double, UniformRandomProvider)}, with at most {@code maxDraws} Gaussian
     * draws per estimate: a configuration with T steps uses max(1000, min(samples, maxDraws/T)) samples.
     */
    public static List<Check> audit(List<Config> configs, int samples, long maxDraws, double alpha,
            UniformRandomProvider rng) {
        PldAccountant pld = new PldAccountant();
        RdpAccountant rdp = new RdpAccountant();
        List<Check> out = new ArrayList<>();
        for (Config c : configs) {
            DpEvent e = c.event();
            List<Double> eps = new ArrayList<>();
            eps.add(0.0);
            for (double d : new double[] {1e-1, 1e-2, 1e-3}) {
                double v = pld.epsilon(e, d);
                if (Double.isFinite(v) && v > 0 && !eps.contains(v)) {
                    eps.add(v);
                }
            }
            int n = (int) Math.max(1000, Math.min(samples, maxDraws / c.steps()));
            for (double epsilon : eps) {
                Estimate rem = estimate(c, epsilon, true, n, alpha, rng);
                Estimate add = estimate(c, epsilon, false, n, alpha, rng);
                double up = pld.delta(e, epsilon);
                double low = pld.deltaLower(e, epsilon);
                double r = rdp.delta(e, epsilon);
                boolean ok = up >= rem.lower() && up >= add.lower() && r >= rem.lower() && r >= add.lower()
                        && low <= Math.max(rem.upper(), add.upper());
                out.add(new Check(c, epsilon, rem, add, up, low, r, ok));
            }
        }
        return out;
    }

    /**
     * The audit grid: noise multipliers 0.01 … 100, sampling rates 10⁻⁴ … 1 and step counts; {@code large}
     * adds the long runs (T up to 10⁵).
     */
    public static List<Config> grid(boolean large) {
        List<Config> g = new ArrayList<>();
        double[] zs = large ? new double[] {0.01, 0.03, 0.1, 0.5, 1, 2, 10, 100} : new double[] {0.01, 0.03, 0.5, 2, 100};
        double[] qs = large ? new double[] {1e-4, 1e-2, 0.1, 1} : new double[] {1e-2, 1};
        long[] ts = large ? new long[] {1, 10, 1000, 100_000} : new long[] {1, 10};
        for (double z : zs) {
            for (double q : qs) {
                for (long t : ts) {
                    if (t == 100_000 && (q > 1e-2 || (q == 1e-2 && z < 1))) {
                        continue; // keeps the validation run to minutes (and ε there is in the hundreds or more)
                    }
                    g.add(new Config(z, q, t));
                }
            }
        }
        return g;
    }
}
