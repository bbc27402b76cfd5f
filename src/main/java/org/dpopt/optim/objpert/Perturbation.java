package org.dpopt.optim.objpert;

import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Loss;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.core.Mutation;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.oracle.DataPasses;
import org.ejml.data.DMatrixRMaj;

/**
 * The planned perturbation of the objective, from the public shape and the part of the budget the
 * perturbation theorem is applied at: the loss's declared constants, λ, and σ_G.
 *
 * @param loss φ
 * @param lipschitz L = L₀R
 * @param beta β = β₀R²
 * @param lambda λ in λ‖w‖²
 * @param epsilon ε of the theorem
 * @param delta δ of the theorem
 * @param sigma σ_G
 * @param rule the rule σ_G came from
 */
record Perturbation(GeneralizedLinearLoss loss, double lipschitz, double beta, double lambda, double epsilon,
        double delta, double sigma, ObjectivePerturbationNoise.Rule rule) {

    /** Δ_G = 2L, the replace-one sensitivity of the linear term. */
    double sensitivity() {
        return 2 * lipschitz;
    }

    /** The theorem's guarantee, recorded when G is drawn. */
    EpsilonDeltaEvent event() {
        return new EpsilonDeltaEvent(epsilon, delta);
    }

    /**
     * Draws G through the run core (recording the theorem's event) and builds the perturbed objective
     * over the data: J(w) = F̂(w) + ⟨G, w⟩/n + λ‖w‖² on the plan's domain W (the run core has checked
     * that the data has the plan's shape, and its n rows the planned n).
     */
    PerturbedObjective draw(PrivateRun run, DataPasses passes) {
        DMatrixRMaj b = new DMatrixRMaj(passes.dimension(), 1);
        run.objectiveNoise(b, sigma / passes.size(), event()); // b = G/n
        return new PerturbedObjective(passes, loss, run.plan().shape().domain(), b, lambda, lipschitz, beta);
    }

    /**
     * How far the {@link Mutation#OBJPERT_BETA} audit mutant puts β above the theorem's limit:
     * β = 20·ε·n·λ.
     */
    static final double MUTANT_BETA_FACTOR = 20;

    /**
     * Plans the perturbation.
     *
     * @param shape the public shape
     * @param epsilon ε of the theorem
     * @param delta δ of the theorem
     * @param lambda λ, or NaN for the rule's value
     * @param rule the λ rule of the preset (see {@link LambdaRule})
     * @param noise the σ_G rule
     * @param epsilonName how ε is named in messages ("eps" or "eps/2")
     * @param mutation {@link Mutation#OBJPERT_BETA} for the audit mutant (λ too small, check skipped)
     * @throws IllegalArgumentException naming the first violated assumption
     */
    static Perturbation plan(ProblemShape shape, double epsilon, double delta, double lambda, LambdaRule rule,
            ObjectivePerturbationNoise.Rule noise, String epsilonName, Mutation mutation) {
        GeneralizedLinearLoss gll = smoothConvexGll(shape);
        double beta = shape.smoothness();
        double lip = shape.lipschitz();
        int n = shape.size();
        double lam = lambda;
        if (Double.isNaN(lam)) {
            lam = rule.lambda(shape, epsilon, delta);
        }
        if (mutation == Mutation.OBJPERT_BETA && beta > 0) {
            // audit only: β = 20·ε·n·λ, above the limit ε·n·λ; the check is skipped and σ_G is calibrated
            // as if the Jacobian term ln(1 + β/Λ) were 0 (the Jacobian is what a too small λ breaks)
            lam = Math.min(lam, beta / (MUTANT_BETA_FACTOR * epsilon * n));
            double sigma = ObjectivePerturbationNoise.sigma(noise, 2 * lip, 0, epsilon, delta);
            return new Perturbation(gll, lip, beta, lam, epsilon, delta, sigma, noise);
        }
        double betaMax = epsilon * n * lam;
        if (beta > betaMax) {
            throw Checks.fail("smoothness beta", "at most " + epsilonName + "*n*lambda = " + betaMax
                    + " for objective perturbation (Kifer-Smith-Thakurta 2012, Bassily et al. 2019 Thm 5.2); "
                    + "lambda >= " + beta / (epsilon * n) + " would satisfy it", beta);
        }
        double sigma = ObjectivePerturbationNoise.sigma(noise, 2 * lip, beta / (2 * n * lam), epsilon, delta);
        return new Perturbation(gll, lip, beta, lam, epsilon, delta, sigma, noise);
    }

    /**
     * How an unset λ is chosen. The paper's rule: the theorem's λ = (2L/M)√(2/n + 4d ln(1/δ)/(ε²n²)) at
     * M = the domain's radius (an unbounded domain is refused). The practical rule: the same formula on a
     * bounded domain, or at a declared comparator radius (a public bound on the norm of the minimizer one
     * competes with); on an unbounded domain without one, λ = {@value #SMOOTHNESS_MULTIPLE}·β/(εn), a
     * fixed multiple of the smallest value the smoothness condition β ≤ εnλ allows (then ln(1 + β/Λ) ≤
     * ln(1 + ε/20) and σ_G is within a few percent of its value at λ = ∞). The practical rule never goes
     * below β/(εn), so it never refuses for smoothness.
     *
     * @param comparatorRadius M for an unbounded domain, or NaN (paper: refused; practical: the multiple)
     * @param practical whether this is the practical rule
     */
    record LambdaRule(double comparatorRadius, boolean practical) {

        /**
         * K of the practical λ = K·β/(εn) on an unbounded domain, fitted on validation splits of the
         * public training files ({@code theory-notes/defaults.md}).
         */
        static final double SMOOTHNESS_MULTIPLE = 10;

        /** λ for the shape at the theorem's (ε, δ). */
        double lambda(ProblemShape shape, double epsilon, double delta) {
            int n = shape.size();
            double smoothnessLimit = shape.smoothness() / (epsilon * n);
            double m = shape.domain().radius(shape.dimension());
            if (!Double.isFinite(m) && Double.isNaN(comparatorRadius)) {
                if (!practical) {
                    throw Checks.fail("domain radius M", "finite when lambda is not given (the theorem's lambda "
                            + "uses M); give lambda (--l2) or a radius, or use the practical preset", m);
                }
                if (!(smoothnessLimit > 0)) {
                    throw Checks.fail("smoothness beta", "positive for the practical lambda on an unbounded domain "
                            + "(lambda = 10 beta/(eps n)); give lambda (--l2) or a radius", shape.smoothness());
                }
                return SMOOTHNESS_MULTIPLE * smoothnessLimit;
            }
            double radius = Double.isFinite(m) ? m : comparatorRadius;
            double lam = ObjectivePerturbationNoise.theoremLambda(shape.lipschitz(), radius, n, shape.dimension(),
                    epsilon, delta);
            // the practical rule never refuses: λ ≥ β/(εn), the smallest value the theorem allows
            return practical ? Math.max(lam, smoothnessLimit * (1 + 1e-9)) : lam;
        }
    }

    /** The loss, checked on its type and declared constants (never on data). */
    static GeneralizedLinearLoss smoothConvexGll(ProblemShape shape) {
        Checks.notNull("shape", shape);
        Loss loss = shape.loss();
        if (!(loss instanceof GeneralizedLinearLoss gll)) {
            throw Checks.fail("loss", "a GeneralizedLinearLoss (rank-one Hessian) for objective perturbation",
                    loss.name());
        }
        if (gll.convexity() != Loss.Convexity.CONVEX) {
            throw Checks.fail("loss convexity", "CONVEX for objective perturbation", gll.convexity());
        }
        double beta = shape.smoothness();
        if (!gll.isTwiceDifferentiable() || !Double.isFinite(beta)) {
            throw Checks.fail("loss smoothness beta", "finite (phi' Lipschitz, phi'' bounded) for objective "
                    + "perturbation; use a smooth loss such as logistic or smoothed-hinge instead of " + gll.name(),
                    beta);
        }
        double lip = shape.lipschitz();
        if (!(lip > 0 && Double.isFinite(lip))) {
            throw Checks.fail("Lipschitz constant L", "positive and finite", lip);
        }
        return gll;
    }
}
