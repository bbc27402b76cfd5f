package org.dpopt.audit;

import org.apache.commons.math3.special.Erf;
import org.dpopt.accounting.GaussianMechanism;
import org.dpopt.linalg.Checks;

/**
 * Gaussian differential privacy (Dong, Roth, Su, "Gaussian Differential Privacy", JRSS-B 2022,
 * arXiv:1905.02383): a mechanism is μ-GDP when no test between neighbours does better than telling
 * N(0, 1) from N(μ, 1), i.e. its false-negative rate at false-positive rate a is at least
 * G_μ(a) = Φ(Φ⁻¹(1 − a) − μ).
 *
 * <p>An observed error pair (a, b) is compatible with μ-GDP only if b ≥ G_μ(a), i.e.
 * μ ≥ Φ⁻¹(1 − a) − Φ⁻¹(b); with a and b replaced by upper confidence bounds this is the μ lower bound
 * of Nasr, Hayes, Steinke, Balle, Tramèr, Jagielski, Carlini, Terzis, "Tight Auditing of
 * Differentially Private Machine Learning", USENIX Security 2023, arXiv:2302.07956. μ-GDP is
 * (ε, δ(ε))-DP for every ε with δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), the curve of one Gaussian
 * release with noise multiplier 1/μ ({@link GaussianMechanism}).
 */
public final class GaussianDp {
    private GaussianDp() {
    }

    /** Φ⁻¹(p) for p ∈ (0, 1), accurate in both tails. */
    public static double normalQuantile(double p) {
        if (!(p > 0 && p < 1)) {
            throw Checks.fail("probability", "in (0, 1)", p);
        }
        // Φ⁻¹(p) = −√2 erfc⁻¹(2p); erfcInv keeps relative accuracy for small arguments
        return p < 0.5 ? -Math.sqrt(2) * Erf.erfcInv(2 * p) : Math.sqrt(2) * Erf.erfcInv(2 * (1 - p));
    }

    /**
     * The smallest μ compatible with the error rates: max(0, Φ⁻¹(1 − fpr) − Φ⁻¹(fnr)); +∞ if either
     * rate is 0 (a perfect test).
     */
    public static double mu(double fpr, double fnr) {
        Checks.inRange("false-positive rate", fpr, 0, 1);
        Checks.inRange("false-negative rate", fnr, 0, 1);
        if (fpr == 0 || fnr == 0) {
            return fpr < 1 && fnr < 1 ? Double.POSITIVE_INFINITY : 0;
        }
        if (fpr == 1 || fnr == 1) {
            return 0;
        }
        return Math.max(0, normalQuantile(1 - fpr) - normalQuantile(fnr));
    }

    /** The smallest ε with δ_μ(ε) ≤ δ for a μ-GDP mechanism (0 for μ = 0, +∞ for μ = ∞). */
    public static double epsilon(double mu, double delta) {
        Checks.delta("delta", delta);
        if (!(mu >= 0)) {
            throw Checks.fail("mu", "non-negative", mu);
        }
        if (mu == 0) {
            return 0;
        }
        if (Double.isInfinite(mu)) {
            return Double.POSITIVE_INFINITY;
        }
        return GaussianMechanism.epsilon(delta, 1 / mu);
    }

    /** δ_μ(ε) for a μ-GDP mechanism. */
    public static double delta(double mu, double epsilon) {
        Checks.positive("mu", mu);
        return GaussianMechanism.delta(epsilon, 1 / mu);
    }

    /** The μ with δ_μ(ε) = δ (the GDP parameter equivalent to an (ε, δ) claim of a Gaussian mechanism). */
    public static double muOf(double epsilon, double delta) {
        Checks.epsilon("epsilon", epsilon);
        Checks.delta("delta", delta);
        return 1 / GaussianMechanism.noiseMultiplier(epsilon, delta);
    }
}
