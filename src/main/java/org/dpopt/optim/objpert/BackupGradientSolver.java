package org.dpopt.optim.objpert;

import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.ejml.data.DMatrixRMaj;

/**
 * The exact variant's backup solve: projected gradient descent on a {@link PerturbedObjective} from
 * w₀ = 0 with step t = 2/(μ + L_J) for a fixed, <em>public</em> number of steps K, after which the
 * certificate is checked. Used only when the Newton solve is not certified.
 *
 * <p>Why K steps certify (exact arithmetic): J is μ = 2λ strongly convex with an L_J = β + 2λ
 * Lipschitz gradient, so the map w ↦ w − t∇J(w) is a contraction with factor c = (κ − 1)/(κ + 1),
 * κ = L_J/μ (Nesterov, <i>Introductory Lectures on Convex Optimization</i>, Kluwer 2004, Thm 2.1.12;
 * no second derivative needed, so piecewise-quadratic losses are covered), and so is its composition
 * with the projection (non-expansive, ŵ a fixed point): ‖w_K − ŵ‖ ≤ c^K‖ŵ‖. Strong convexity and
 * 0 ∈ W give ‖ŵ‖ ≤ ‖∇J(0)‖/μ ≤ (L + ‖G‖/n)/μ, and ‖ŵ‖ ≤ M on a ball. The certificate is at most
 * 6κ‖w − ŵ‖ (the gradient mapping is 3L_J-Lipschitz and vanishes at ŵ). Hence, whenever ‖G‖ ≤ B,
 * K = ⌈ln(6κ·D₀/τ)/ln(1/c)⌉ steps with D₀ = min(M, (L + B/n)/μ) reach a certificate ≤ τ.
 */
final class BackupGradientSolver {

    /**
     * The outcome.
     *
     * @param w the last iterate (in W)
     * @param distance its certified distance bound
     * @param certified distance ≤ τ
     * @param gradientEvaluations per-example derivative evaluations
     */
    record Outcome(DMatrixRMaj w, double distance, boolean certified, long gradientEvaluations) {
    }

    private BackupGradientSolver() {
    }

    /**
     * K from public constants (see the class comment), at least 1.
     *
     * @param lambda λ
     * @param beta β of the loss
     * @param lipschitz L of the loss
     * @param linearNormBound B/n, a bound on ‖b‖ = ‖G‖/n
     * @param radius M (+∞ for ℝ^d)
     * @param target τ, the certified distance required
     */
    static int steps(double lambda, double beta, double lipschitz, double linearNormBound, double radius,
            double target) {
        Checks.positive("lambda", lambda);
        Checks.nonNegative("beta", beta);
        Checks.positive("target", target);
        double mu = 2 * lambda;
        double kappa = (beta + mu) / mu;
        double c = (kappa - 1) / (kappa + 1);
        if (c == 0) {
            return 1;
        }
        double d0 = Math.min(radius, (lipschitz + linearNormBound) / mu);
        double k = Math.ceil(Math.log(6 * kappa * d0 / target) / Math.log(1 / c));
        if (!(k <= 10_000_000)) {
            throw Checks.fail("backup gradient steps", "at most 1e7 (kappa = " + kappa + " is too large for a "
                    + "certified solve; raise lambda)", k);
        }
        return (int) Math.max(1, k);
    }

    /** Runs K steps from 0 and checks the certificate against τ. */
    static Outcome solve(PerturbedObjective obj, int steps, double target) {
        Checks.atLeastOne("steps", steps);
        int d = obj.dimension();
        double t = 2 / (obj.strongConvexity() + obj.smoothness() + 2 * obj.lambda());
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        DMatrixRMaj work = new DMatrixRMaj(d, 1);
        obj.domain().project(w);
        for (int k = 0; k < steps; k++) {
            obj.gradient(w, g);
            Vectors.axpy(-t, g, w);
            obj.domain().project(w);
        }
        obj.gradient(w, g);
        double gap = obj.suboptimalityBound(w, g, work);
        double dist = Math.min(obj.distanceBound(gap), obj.gradientMappingDistance(w, g, work));
        return new Outcome(w, dist, dist <= target, (long) (steps + 1) * obj.size());
    }
}
