package org.dpopt.optim.objpert;

import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.linsol.LinearSolverDense;

/**
 * Minimizes a {@link PerturbedObjective} J over W = ℝ^d or a centred ℓ2 ball to a <em>certified</em>
 * distance from the exact minimizer, as exact objective perturbation requires.
 *
 * <p>Method: damped Newton (Cholesky of (1/n)Σφ″xxᵀ + 2(λ+ν)I, Armijo backtracking) on J + ν‖w‖². For
 * W = ℝ^d, ν = 0. For the ball {‖w‖ ≤ r}: if the unconstrained minimizer lies inside it is the answer;
 * otherwise the constrained minimizer is the unconstrained minimizer of J + ν‖w‖² for the unique
 * ν &gt; 0 with ‖w(ν)‖ = r (KKT), found by a safeguarded Newton iteration on the secular equation
 * 1/‖w(ν)‖ − 1/r = 0 (as in trust-region solvers), with d‖w(ν)‖/dν from the last Cholesky factor.
 *
 * <p>The answer is <em>certified</em> when min(√(2·gap/μ), 2‖G_L(w)‖/μ) ≤ tolerance (the certificates
 * of {@link PerturbedObjective}); the solver never claims more, and reports an uncertified answer
 * (step budget exhausted, or a Cholesky factorisation that failed in floating point) as such. Cost
 * per Newton step: n d² + d³/3 flops, so it is meant for moderate d (≲ 10³).
 */
final class CertifiedNewtonSolver {

    /**
     * The outcome of a solve.
     *
     * @param w the last iterate (in W)
     * @param suboptimality certified bound on J(w) − min_W J
     * @param distance certified bound on ‖w − ŵ‖
     * @param certified whether distance ≤ the tolerance
     * @param newtonSteps Newton steps taken (data dependent)
     * @param gradientEvaluations per-example derivative evaluations (gradients and Hessians)
     */
    record Solution(DMatrixRMaj w, double suboptimality, double distance, boolean certified, int newtonSteps,
            long gradientEvaluations) {
    }

    private final double tolerance;
    private final int maxNewtonSteps;

    /**
     * @param tolerance required certified distance ‖w − ŵ‖, relative to max(1, r) (r the ball radius, or
     *                  ‖w‖ when unconstrained); &gt; 0
     * @param maxNewtonSteps total Newton step budget ≥ 1
     */
    CertifiedNewtonSolver(double tolerance, int maxNewtonSteps) {
        this.tolerance = Checks.positive("tolerance", tolerance);
        this.maxNewtonSteps = Checks.atLeastOne("maxNewtonSteps", maxNewtonSteps);
    }

    /** Tolerance 1e-9, 500 Newton steps. */
    static CertifiedNewtonSolver defaults() {
        return new CertifiedNewtonSolver(1e-9, 500);
    }

    /** Whether W is supported (ℝ^d or a centred ℓ2 ball). */
    static boolean supports(ConvexSet w) {
        return w.isWholeSpace() || w.centredBallRadius().isPresent();
    }

    /** Mutable state of one solve. */
    private static final class Work {
        final DMatrixRMaj w;
        final DMatrixRMaj g;
        final DMatrixRMaj p;
        final DMatrixRMaj trial;
        final DMatrixRMaj h;
        final LinearSolverDense<DMatrixRMaj> chol;
        int steps;
        long evals;
        boolean factorFailed;

        Work(int d) {
            w = new DMatrixRMaj(d, 1);
            g = new DMatrixRMaj(d, 1);
            p = new DMatrixRMaj(d, 1);
            trial = new DMatrixRMaj(d, 1);
            h = new DMatrixRMaj(d, d);
            chol = LinearSolverFactory_DDRM.chol(d);
        }
    }

    /**
     * Solves and checks the certificate.
     *
     * @throws IllegalArgumentException if W is not supported
     */
    Solution solve(PerturbedObjective obj) {
        Checks.notNull("objective", obj);
        ConvexSet dom = obj.domain();
        if (!supports(dom)) {
            throw Checks.fail("domain", "the whole space or a centred L2 ball for the Newton solver", dom);
        }
        int d = obj.dimension();
        Work s = new Work(d);
        double r = dom.radius(d);
        double scale = Double.isFinite(r) ? Math.max(1, r) : 1;
        double innerTol = 1e-3 * tolerance * scale;
        newton(obj, s, 0, innerTol);
        if (!s.factorFailed && Double.isFinite(r) && Vectors.norm2(s.w) > r) {
            secular(obj, s, r, innerTol);
        }
        dom.project(s.w);
        obj.gradient(s.w, s.g);
        s.evals += obj.size();
        double gap = obj.suboptimalityBound(s.w, s.g, s.p);
        double dist = Math.min(obj.distanceBound(gap), obj.gradientMappingDistance(s.w, s.g, s.p));
        double target = tolerance * (Double.isFinite(r) ? scale : Math.max(1, Vectors.norm2(s.w)));
        boolean certified = !s.factorFailed && dist <= target;
        return new Solution(s.w.copy(), gap, dist, certified, s.steps, s.evals);
    }

    /** Warm-started damped Newton on J + ν‖w‖² until ‖∇‖/(2(λ+ν)) ≤ tol (or the budget ends). */
    private void newton(PerturbedObjective obj, Work s, double nu, double tol) {
        long n = obj.size();
        double mu = 2 * (obj.lambda() + nu);
        while (s.steps < maxNewtonSteps) {
            obj.gradient(s.w, s.g);
            Vectors.axpy(2 * nu, s.w, s.g);
            s.evals += n;
            if (Vectors.norm2(s.g) / mu <= tol) {
                factor(obj, s, nu); // keep the factor current for the secular derivative
                return;
            }
            if (!factor(obj, s, nu)) {
                return;
            }
            s.chol.solve(s.g, s.p);
            Vectors.scale(-1, s.p);
            double slope = Vectors.dot(s.g, s.p);
            double f0 = valueNu(obj, s.w, nu);
            s.evals += n;
            s.steps++;
            lineSearch(obj, s, nu, f0, slope);
            Vectors.copy(s.trial, s.w);
        }
    }

    /** Armijo backtracking along s.p from s.w into s.trial. */
    private static void lineSearch(PerturbedObjective obj, Work s, double nu, double f0, double slope) {
        Vectors.copy(s.w, s.trial);
        if (-slope <= 1e-10 * (1 + Math.abs(f0))) {
            // decrease below what function values resolve: inside Newton's quadratic region, full step
            Vectors.axpy(1, s.p, s.trial);
            return;
        }
        double t = 1;
        for (int k = 0; k < 60; k++) {
            Vectors.copy(s.w, s.trial);
            Vectors.axpy(t, s.p, s.trial);
            double f1 = valueNu(obj, s.trial, nu);
            s.evals += obj.size();
            if (f1 <= f0 + 1e-4 * t * slope) {
                return;
            }
            t *= 0.5;
        }
    }

    /** Factors the Hessian of J + ν‖w‖² at s.w; false (and s.factorFailed) if Cholesky fails. */
    private static boolean factor(PerturbedObjective obj, Work s, double nu) {
        obj.hessian(s.w, nu, s.h);
        s.evals += obj.size();
        if (!s.chol.setA(s.h)) {
            s.factorFailed = true;
            return false;
        }
        return true;
    }

    private static double valueNu(PerturbedObjective obj, DMatrixRMaj w, double nu) {
        return obj.value(w) + nu * Vectors.dot(w, w);
    }

    /** Finds ν &gt; 0 with ‖w(ν)‖ = r; on return s.w = w(ν). */
    private void secular(PerturbedObjective obj, Work s, double r, double innerTol) {
        double lo = 0;
        // the minimizer of the 2(λ+ν)-strongly convex J + ν‖w‖² lies within ‖∇(·)(0)‖/(2(λ+ν)) of 0
        double hi = (obj.lipschitz() + obj.linearNorm()) / (2 * r);
        double nu = hi / 2;
        for (int it = 0; it < 200 && s.steps < maxNewtonSteps && !s.factorFailed; it++) {
            newton(obj, s, nu, innerTol);
            if (s.factorFailed) {
                return;
            }
            double norm = Vectors.norm2(s.w);
            if (Math.abs(norm - r) <= 1e-13 * r) {
                return;
            }
            if (norm > r) {
                lo = nu;
            } else {
                hi = nu;
            }
            // dw/dν = −2 H⁻¹ w, so d(1/‖w‖)/dν = 2⟨w, H⁻¹w⟩/‖w‖³
            s.chol.solve(s.w, s.p);
            double phi = 1 / norm - 1 / r;
            double dphi = 2 * Vectors.dot(s.w, s.p) / (norm * norm * norm);
            double cand = nu - phi / dphi;
            nu = (cand > lo && cand < hi) ? cand : 0.5 * (lo + hi);
            if (hi - lo <= 1e-15 * hi) {
                return;
            }
        }
    }
}
