package org.dpopt.optim.objpert;

import org.dpopt.linalg.Checks;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.oracle.DataPasses;
import org.ejml.data.DMatrixRMaj;

/**
 * Exact objective perturbation for generalized linear losses: draw G ~ N(0, σ_G²I_d) and release
 * ŵ = argmin_W J(w), J(w) = F̂(w) + ⟨G, w⟩/n + λ‖w‖², with W = ℝ^d or a centred ℓ2 ball, solved by a
 * certified Newton method to a certified distance from ŵ.
 *
 * <p>Papers: Chaudhuri, Monteleoni, Sarwate, "Differentially Private Empirical Risk Minimization",
 * JMLR 2011 (the mechanism); Kifer, Smith, Thakurta, "Private Convex Empirical Risk Minimization and
 * High-dimensional Regression", COLT 2012 (constrained domains, the rank-one Hessian condition);
 * Bassily, Feldman, Talwar, Thakurta, "Private Stochastic Convex Optimization with Optimal Rates",
 * NeurIPS 2019, arXiv:1908.09970, §5 (Algorithm 2 and Thms 5.2–5.3: the λ rule and the rate).
 *
 * <p>Assumptions (checked on the loss <em>type</em> and its declared constants, never on data): the loss
 * is a convex {@code GeneralizedLinearLoss} (rank-one Hessians φ″xxᵀ) with Lipschitz φ′ (finite β);
 * β ≤ ε·n·λ (Λ = 2nλ ≥ 2β/ε). Default λ = (2L/M)√(2/n + 4d ln(1/δ_M)/(ε²n²)) on a bounded domain,
 * 10·β/(εn) on ℝ^d (practical preset); σ_G by
 * {@link ObjectivePerturbationNoise.Rule} (default: the tight two-dimensional tail bound).
 *
 * <p>No data-dependent event: if the Newton solve is not certified (a data-dependent outcome), a
 * projected-gradient solve with a public step count K follows, which certifies in exact arithmetic
 * whenever ‖G‖ is below the public bound B = σ_G√(d + 2√(d ln(1/p)) + 2 ln(1/p)); if that fails too,
 * the data-independent point Π_W(0) = 0 is released. A run therefore differs from the ideal mechanism
 * only on an event of probability at most p (‖G‖ &gt; B) for every dataset, and the plan sets aside
 * (1 + e^ε)p of δ first: the theorem runs at δ_M = δ − (1 + e^ε)p. Nothing about the solve (steps,
 * distances, which path was taken) is released; those are non-private diagnostics.
 *
 * <p>Privacy: replace-one (n public); the statement is the theorem's (ε, δ_M) event, recorded when G
 * is drawn, reported by basic composition plus the failure charge. One noisy step (the perturbation),
 * so the plan's {@code steps} is 1.
 */
public final class ObjectivePerturbation extends PassesOptimizer<ExactSchedule, ObjectivePerturbation.Builder> {

    private ObjectivePerturbation(Builder b) {
        super("objective-perturbation", ExactSchedule.class, b);
    }

    /** A builder (theorem λ, tight noise, tolerance 1e-9). */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    protected RunPlan planFor(ProblemShape shape, PrivacyBudget budget) {
        Perturbation.smoothConvexGll(shape);
        if (!CertifiedNewtonSolver.supports(shape.domain())) {
            throw Checks.fail("domain", "the whole space or a centred L2 ball for exact objective perturbation "
                    + "(use objective-perturbation-svrg for other sets)", shape.domain());
        }
        FailureBudget failure = settings.failure(budget);
        Perturbation pert = settings.plan(shape, budget.epsilon(), failure.remainingDelta(), "eps", options().mutation());
        double bound = ObjectivePerturbationNoise.noiseNormBound(pert.sigma(), shape.dimension(),
                failure.probability());
        double m = shape.domain().radius(shape.dimension());
        double target = config.tolerance * (Double.isFinite(m) ? Math.max(1, m) : 1);
        int backup = config.backupStepsOverride > 0 ? config.backupStepsOverride
                : BackupGradientSolver.steps(pert.lambda(),
                pert.beta(), pert.lipschitz(), bound / shape.size(), m, target);
        ExactSchedule s = new ExactSchedule(pert, config.tolerance, config.newtonSteps, backup, target);
        RunParameters.Builder params = failure.publish(settings.parameters(shape, pert), bound)
                .put(Param.STEPS, 1L)
                .put(Param.SOLVER_TOLERANCE, config.tolerance)
                .put(Param.SOLVER_STEP_LIMIT, (long) config.newtonSteps)
                .put(Param.FALLBACK_STEPS, (long) backup);
        return RunPlan.builder(name(), shape)
                .privacy(pert.event(), relation(), failure.accountant(), budget)
                .parameters(params.build())
                .detail(s)
                .build();
    }

    /**
     * Draws G and minimizes: the certified Newton answer, else the certified backup answer, else the
     * data-independent point Π_W(0) (reachable only when ‖G‖ exceeds its public bound, or through
     * rounding). Which of the three happened is a non-private diagnostic.
     */
    @Override
    DMatrixRMaj release(PrivateRun run, DataPasses passes, ExactSchedule s) {
        PerturbedObjective obj = s.perturbation().draw(run, passes);
        CertifiedNewtonSolver.Solution sol = new CertifiedNewtonSolver(s.tolerance(), s.newtonSteps()).solve(obj);
        run.note("exact objective perturbation: the release is certified within " + s.tolerance()
                + " max(1, M) of the exact minimizer the theorem assumes (relative to max(1, |w|) when W is the "
                + "whole space)");
        run.diagnose(Diagnostic.SOLVER_STEPS, sol.newtonSteps());
        DMatrixRMaj out = sol.w();
        double distance = sol.distance();
        long evals = sol.gradientEvaluations();
        int fallback = 0;
        if (!sol.certified()) {
            BackupGradientSolver.Outcome backup = BackupGradientSolver.solve(obj, s.backupSteps(), s.backupTarget());
            evals += backup.gradientEvaluations();
            out = backup.w();
            distance = backup.distance();
            fallback = 1;
            if (!backup.certified()) {
                out = new DMatrixRMaj(passes.dimension(), 1);
                obj.domain().project(out);
                fallback = 2;
            }
        }
        run.diagnose(Diagnostic.SOLVER_FALLBACK, fallback);
        run.diagnose(Diagnostic.CERTIFIED_DISTANCE, distance);
        run.diagnose(Diagnostic.GRADIENT_EVALUATIONS, evals);
        if (run.diagnosticsOn()) {
            run.diagnose(Diagnostic.TRAIN_LOSS, passes.meanLoss(obj.loss(), out));
        }
        return out;
    }

    @Override
    public String toString() {
        return "ObjectivePerturbation(" + settings.describe() + ", noiseRule=" + settings.noiseRule()
                + ", tolerance=" + config.tolerance + ")";
    }

    /** Builder; every setter validates. */
    public static final class Builder extends PerturbationBuilder<Builder> {
        private double tolerance = 1e-9;
        private int newtonSteps = 500;
        private int backupStepsOverride = 0; // 0: the certified count; tests only

        private Builder() {
        }

        /** Certified distance to the exact minimizer, relative to max(1, M) (default 1e-9). */
        public Builder tolerance(double t) {
            this.tolerance = Checks.inRange("tolerance", t, 1e-14, 1e-3);
            return this;
        }

        /** Newton step limit ≥ 1 (default 500). */
        public Builder newtonSteps(int k) {
            this.newtonSteps = Checks.atLeastOne("newtonSteps", k);
            return this;
        }

        /**
         * Tests only (package-private): replaces the certified backup step count, which voids the bound
         * on the failure probability; used to exercise the data-independent release.
         */
        Builder backupStepsForTesting(int k) {
            this.backupStepsOverride = Checks.atLeastOne("backupSteps", k);
            return this;
        }

        /** Builds the immutable optimizer. */
        public ObjectivePerturbation build() {
            return new ObjectivePerturbation(this);
        }
    }
}
