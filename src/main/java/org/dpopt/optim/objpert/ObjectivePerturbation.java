package org.dpopt.optim.objpert;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.OptimizerBuilder;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.optim.core.RunOptions;
import org.dpopt.oracle.DataPasses;
import org.dpopt.oracle.DatasetPasses;
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
public final class ObjectivePerturbation implements PrivateOptimizer {

    private final double lambda; // NaN: theorem
    private final Preset preset;
    private final double comparatorRadius; // NaN: none declared
    private final ObjectivePerturbationNoise.Rule noiseRule;
    private final double tolerance;
    private final int newtonSteps;
    private final double failureProbability; // NaN: 1e-3·δ/(1 + e^ε)
    private final int backupStepsOverride; // 0: the certified count; tests only
    private final RunOptions options;

    private ObjectivePerturbation(Builder b) {
        this.lambda = b.lambda;
        this.preset = b.preset;
        this.comparatorRadius = b.comparatorRadius;
        this.noiseRule = b.noiseRule;
        this.tolerance = b.tolerance;
        this.newtonSteps = b.newtonSteps;
        this.failureProbability = b.failureProbability;
        this.backupStepsOverride = b.backupStepsOverride;
        this.options = b.runOptions();
    }

    /** A builder (theorem λ, tight noise, tolerance 1e-9). */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return "objective-perturbation";
    }

    @Override
    public NeighboringRelation relation() {
        return NeighboringRelation.REPLACE_ONE;
    }

    @Override
    public RunPlan plan(ProblemShape shape, PrivacyBudget budget) {
        Checks.notNull("shape", shape);
        Checks.notNull("budget", budget);
        Perturbation.smoothConvexGll(shape);
        if (!CertifiedNewtonSolver.supports(shape.domain())) {
            throw Checks.fail("domain", "the whole space or a centred L2 ball for exact objective perturbation "
                    + "(use objective-perturbation-svrg for other sets)", shape.domain());
        }
        FailureBudget failure = FailureBudget.of(failureProbability, budget);
        Perturbation pert = Perturbation.plan(shape, budget.epsilon(), failure.remainingDelta(), lambda,
                lambdaRule(preset, comparatorRadius), noiseRule, "eps", options.mutation());
        double bound = ObjectivePerturbationNoise.noiseNormBound(pert.sigma(), shape.dimension(),
                failure.probability());
        double m = shape.domain().radius(shape.dimension());
        double target = tolerance * (Double.isFinite(m) ? Math.max(1, m) : 1);
        int backup = backupStepsOverride > 0 ? backupStepsOverride : BackupGradientSolver.steps(pert.lambda(),
                pert.beta(), pert.lipschitz(), bound / shape.size(), m, target);
        ExactSchedule s = new ExactSchedule(pert, tolerance, newtonSteps, backup, target);
        RunParameters.Builder params = failure.publish(parameters(shape, pert, preset, comparatorRadius), bound)
                .put(Param.STEPS, 1L)
                .put(Param.SOLVER_TOLERANCE, tolerance)
                .put(Param.SOLVER_STEP_LIMIT, (long) newtonSteps)
                .put(Param.FALLBACK_STEPS, (long) backup);
        return RunPlan.builder(name(), shape)
                .privacy(pert.event(), relation(), failure.accountant(), budget)
                .parameters(params.build())
                .detail(s)
                .build();
    }

    /**
     * The λ rule of a preset: the paper's needs a bounded domain (M its radius); the practical one uses
     * a declared comparator radius or, without one, 10·β/(εn) on an unbounded domain, and never refuses
     * for smoothness.
     */
    static Perturbation.LambdaRule lambdaRule(Preset preset, double comparatorRadius) {
        return preset == Preset.PAPER ? new Perturbation.LambdaRule(Double.NaN, false)
                : new Perturbation.LambdaRule(comparatorRadius, true);
    }

    /** The parameters both variants publish about the perturbation. */
    static RunParameters.Builder parameters(ProblemShape shape, Perturbation pert, Preset preset,
            double comparatorRadius) {
        double m = shape.domain().radius(shape.dimension());
        RunParameters.Builder p = RunParameters.builder()
                .put(Param.DATASET_SIZE, shape.size())
                .put(Param.DIMENSION, shape.dimension())
                .put(Param.ROW_NORM_BOUND, shape.rowNormBound())
                .put(Param.LIPSCHITZ, pert.lipschitz())
                .put(Param.SMOOTHNESS, pert.beta())
                .put(Param.PRESET, preset.key())
                .putIfFinite(Param.RADIUS, Double.isFinite(m) || preset == Preset.PAPER ? m : comparatorRadius)
                .put(Param.CONSTRAINED, !shape.domain().isWholeSpace())
                .put(Param.L2, pert.lambda())
                .put(Param.OBJECTIVE_SIGMA, pert.sigma())
                .put(Param.NOISE_RULE, pert.rule().name().toLowerCase(java.util.Locale.ROOT))
                .put(Param.PERTURBATION_EPSILON, pert.epsilon())
                .put(Param.PERTURBATION_DELTA, pert.delta())
                .put(Param.ACCOUNTANT, "basic-composition");
        return p;
    }

    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        ExactSchedule s = plan.detail(ExactSchedule.class);
        PrivateRun run = PrivateRun.start(plan, problem, rng, options);
        return run.finish(solve(run, new DatasetPasses(problem.data()), s));
    }

    /**
     * Runs a plan on rows that live elsewhere (a distributed engine): every value, gradient and Hessian
     * of J is a full pass of {@code passes}; G, the Newton and backup solves, the fallback and the ledger
     * are this JVM's. The same solve, events and report as
     * {@link #run(Problem, RunPlan, UniformRandomProvider)} (which is this method on the in-memory
     * passes); with the same generator, the same G, and models that agree to the rounding of the passes'
     * sums (the solve is certified within the tolerance on both).
     *
     * @param passes the rows (their number must be the planned n)
     * @param shape the public shape of the distributed data (must be the plan's)
     */
    public OptimizationResult run(DataPasses passes, ProblemShape shape, RunPlan plan, UniformRandomProvider rng) {
        Checks.notNull("passes", passes);
        ExactSchedule s = plan.detail(ExactSchedule.class);
        PrivateRun run = PrivateRun.startDistributed(plan, shape, passes.size(), rng, options);
        return run.finish(solve(run, passes, s));
    }

    /**
     * Draws G and minimizes: the certified Newton answer, else the certified backup answer, else the
     * data-independent point Π_W(0) (reachable only when ‖G‖ exceeds its public bound, or through
     * rounding). Which of the three happened is a non-private diagnostic.
     */
    static DMatrixRMaj solve(PrivateRun run, DataPasses passes, ExactSchedule s) {
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

    /** A builder initialised with this optimizer's settings (for sweeps). */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.lambda = lambda;
        b.preset = preset;
        b.comparatorRadius = comparatorRadius;
        b.noiseRule = noiseRule;
        b.tolerance = tolerance;
        b.newtonSteps = newtonSteps;
        b.failureProbability = failureProbability;
        b.backupStepsOverride = backupStepsOverride;
        return b.runOptions(options);
    }

    @Override
    public String toString() {
        return "ObjectivePerturbation(preset=" + preset.key() + ", lambda=" + (Double.isNaN(lambda) ? "theorem" : lambda)
                + ", comparatorRadius=" + comparatorRadius + ", noiseRule="
                + noiseRule + ", tolerance=" + tolerance + ")";
    }

    /** Builder; every setter validates. */
    public static final class Builder extends OptimizerBuilder<Builder> {
        private double lambda = Double.NaN;
        private Preset preset = Preset.PRACTICAL;
        private double comparatorRadius = Double.NaN;
        private ObjectivePerturbationNoise.Rule noiseRule = ObjectivePerturbationNoise.Rule.TIGHT;
        private double tolerance = 1e-9;
        private int newtonSteps = 500;
        private double failureProbability = Double.NaN;
        private int backupStepsOverride = 0;

        private Builder() {
        }

        /**
         * λ &gt; 0 in λ‖w‖² (default: the theorem's value λ = (2L/M)√(2/n + 4d ln(1/δ_M)/(ε²n²)) at M = the
         * domain's radius or a declared comparator radius; on an unbounded domain without one, the
         * practical preset's 10·β/(εn)).
         */
        public Builder lambda(double l) {
            this.lambda = Checks.positive("lambda", l);
            return this;
        }

        /**
         * {@link Preset#PRACTICAL} (default): on an unbounded domain λ = 10·β/(εn), ten times the smallest
         * value the smoothness condition allows (or the theorem's formula at a declared
         * {@link #comparatorRadius}, raised if needed to β/(εn));
         * {@link Preset#PAPER}: the theorem as stated, which needs a bounded domain and refuses β &gt; εnλ.
         */
        public Builder preset(Preset p) {
            this.preset = Checks.notNull("preset", p);
            return this;
        }

        /**
         * M &gt; 0 for the practical λ rule on an unbounded domain: a public bound on the norm of the
         * minimizer one competes with, λ then being the theorem's formula at M (default: none, λ =
         * 10·β/(εn)).
         */
        public Builder comparatorRadius(double m) {
            this.comparatorRadius = Checks.finite("comparatorRadius", Checks.positive("comparatorRadius", m));
            return this;
        }

        /** TIGHT (default) or KST12. */
        public Builder noiseRule(ObjectivePerturbationNoise.Rule r) {
            this.noiseRule = Checks.notNull("noiseRule", r);
            return this;
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
         * The probability p ∈ (0, 1) of a data-independent release that the plan charges (1 + e^ε)p
         * of δ for (default 1e-3·δ/(1 + e^ε)); it bounds ‖G‖ and so the backup solve's step count.
         */
        public Builder failureProbability(double pr) {
            this.failureProbability = Checks.openUnit("failureProbability", pr);
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
