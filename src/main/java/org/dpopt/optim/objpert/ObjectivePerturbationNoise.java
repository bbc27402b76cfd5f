package org.dpopt.optim.objpert;

import org.dpopt.linalg.Checks;

/**
 * The public rules of objective perturbation's noise and regularisation, shared by the exact and the
 * approximate variant. Every quantity here is a function of declared constants (n, d, L, β, M) and the
 * budget only.
 *
 * <p>Notation: the perturbed objective is J(w) = F̂(w) + ⟨G, w⟩/n + λ‖w‖² with G ~ N(0, σ_G²I_d),
 * Λ = 2nλ (Kifer, Smith, Thakurta, "Private Convex Empirical Risk Minimization and High-dimensional
 * Regression", COLT 2012), Δ_G = 2L the replace-one sensitivity of the linear term; the derivations are
 * in {@code theory-notes/objective-perturbation.md}.
 */
public final class ObjectivePerturbationNoise {

    private ObjectivePerturbationNoise() {
    }

    /** Calibration of σ_G. */
    public enum Rule {
        /** The two-dimensional tail bound (default; never larger than KST12). */
        TIGHT,
        /** Kifer–Smith–Thakurta's σ_G² = Δ_G²(8 ln(2/δ) + 4ε)/ε². */
        KST12
    }

    /** KST12's σ_G = Δ_G √(8 ln(2/δ) + 4ε)/ε for a linear-term shift of norm at most Δ_G at (ε, δ). */
    public static double kstSigma(double deltaG, double epsilon, double delta) {
        return deltaG * Math.sqrt(8 * Math.log(2 / delta) + 4 * epsilon) / epsilon;
    }

    /**
     * The tight σ_G: the smallest σ with t·Δ_G/σ + Δ_G²/(2σ²) ≤ ε − ln(1 + β/Λ), t = √(2 ln(1/δ)).
     *
     * @param deltaG Δ_G = sup ‖∇f(w;z) − ∇f(w;z′)‖
     * @param betaOverBigLambda β/Λ with Λ = 2nλ
     * @throws IllegalArgumentException if ε ≤ ln(1 + β/Λ)
     */
    public static double tightSigma(double deltaG, double betaOverBigLambda, double epsilon, double delta) {
        double eps0 = epsilon - Math.log1p(betaOverBigLambda);
        if (!(eps0 > 0)) {
            throw Checks.fail("epsilon - ln(1 + beta/Lambda)", "positive", eps0);
        }
        double t = Math.sqrt(2 * Math.log(1 / delta));
        double a = 2 * eps0 / (Math.sqrt(t * t + 2 * eps0) + t); // = √(t²+2ε₀) − t, stably
        return deltaG / a;
    }

    /** σ_G by a rule. */
    public static double sigma(Rule rule, double deltaG, double betaOverBigLambda, double epsilon, double delta) {
        return Checks.notNull("rule", rule) == Rule.TIGHT
                ? tightSigma(deltaG, betaOverBigLambda, epsilon, delta)
                : kstSigma(deltaG, epsilon, delta);
    }

    /**
     * The theorem's λ = (2L/M)√(2/n + 4d ln(1/δ)/(ε²n²)) (Bassily, Feldman, Talwar, Thakurta, "Private
     * Stochastic Convex Optimization with Optimal Rates", NeurIPS 2019, arXiv:1908.09970, Thm 5.3).
     */
    public static double theoremLambda(double lipschitz, double radius, int n, int d, double epsilon, double delta) {
        return (2 * lipschitz / radius)
                * Math.sqrt(2.0 / n + 4.0 * d * Math.log(1 / delta) / (epsilon * epsilon * (double) n * n));
    }

    /**
     * A public bound on ‖G‖ for G ~ N(0, σ²I_d) that fails with probability at most p:
     * σ·√(d + 2√(d·x) + 2x), x = ln(1/p), by the chi-square tail of Laurent and Massart ("Adaptive
     * Estimation of a Quadratic Functional by Model Selection", Ann. Statist. 2000, Lemma 1):
     * P[‖G‖²/σ² ≥ d + 2√(dx) + 2x] ≤ e^{−x}.
     */
    public static double noiseNormBound(double sigma, int d, double p) {
        Checks.nonNegative("sigma", sigma);
        Checks.atLeastOne("d", d);
        Checks.openUnit("p", p);
        double x = -Math.log(p); // not ln(1/p): 1/p overflows for the p of a huge ε
        return sigma * Math.sqrt(d + 2 * Math.sqrt(d * x) + 2 * x);
    }

    /**
     * The δ charged for a solver that fails with probability at most p on every dataset, at ε:
     * (1 + e^ε)p (ε capped at 700 to stay finite).
     */
    public static double failureCharge(double epsilon, double p) {
        return (1 + Math.exp(Math.min(epsilon, 700))) * p;
    }

    /** The default failure probability 1e-3·δ/(1 + e^ε): a failure then costs δ/1000. */
    public static double defaultFailureProbability(double epsilon, double delta) {
        return 1e-3 * delta / (1 + Math.exp(Math.min(epsilon, 700)));
    }
}
