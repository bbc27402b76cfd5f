package org.dpopt.optim.objpert;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.BasicCompositionAccountant;
import org.dpopt.accounting.ComposedEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.GaussianMechanism;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.OptimizerBuilder;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.optim.core.RunOptions;
import org.ejml.data.DMatrixRMaj;

/**
 * Approximate objective perturbation with SVRG and Gaussian output noise: the budget is split
 * (ε/2, δ_M/2) + (ε/2, δ_M/2); G ~ N(0, σ_G²I) is calibrated for (ε/2, δ_M/2); SVRG minimizes
 * J(w) = F̂(w) + ⟨G, w⟩/n + λ‖w‖² over any closed convex W to a certified suboptimality α (default
 * M²λ/n²), so that ‖w̃ − ŵ‖ ≤ r = √(2α/λ); the release is Π_W(w̃ + H) with H Gaussian for ℓ2
 * sensitivity 2r at (ε/2, δ_M/2) (exact Balle–Wang calibration).
 *
 * <p>Papers: Bassily, Feldman, Talwar, Thakurta, "Private Stochastic Convex Optimization with Optimal
 * Rates", NeurIPS 2019, arXiv:1908.09970, §5 (the oracle-efficient variant and its SVRG lemma);
 * Iyengar, Near, Song, Thakkar, Thakurta, Wang, "Towards Practical Differentially Private Convex
 * Optimization", IEEE S&amp;P 2019 (approximate minima perturbation); Balle, Wang, "Improving the
 * Gaussian Mechanism for Differential Privacy", ICML 2018, arXiv:1805.06530 (the output calibration).
 *
 * <p>Assumptions as for {@link ObjectivePerturbation}, with β ≤ (ε/2)·n·λ. The SVRG run may fail to
 * certify α within its epoch budget; the budget bounds that probability by p on every dataset, and the
 * plan sets aside (1 + e^ε)p of δ first, so δ_M = δ − (1 + e^ε)p.
 *
 * <p>Privacy: replace-one; statement Composed((ε/2, δ_M/2)-DP, Gaussian(z_H)), reported by basic
 * composition with the failure charge. Only a certified iterate is ever perturbed and released.
 */
public final class ApproximateObjectivePerturbation implements PrivateOptimizer {

    private final double lambda; // NaN: theorem
    private final double accuracy; // NaN: M²λ/n²
    private final ObjectivePerturbationNoise.Rule noiseRule;
    private final int epochs; // 0: certified budget
    private final double failureProbability; // NaN: 1e-3·δ/(1 + e^ε)
    private final boolean earlyStop;
    private final RunOptions options;

    private ApproximateObjectivePerturbation(Builder b) {
        this.lambda = b.lambda;
        this.accuracy = b.accuracy;
        this.noiseRule = b.noiseRule;
        this.epochs = b.epochs;
        this.failureProbability = b.failureProbability;
        this.earlyStop = b.earlyStop;
        this.options = b.runOptions();
    }

    /** A builder (theorem λ, α = M²λ/n², tight noise, certified epoch budget). */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return "objective-perturbation-svrg";
    }

    @Override
    public NeighboringRelation relation() {
        return NeighboringRelation.REPLACE_ONE;
    }

    /** p: as set, or 1e-3·δ/(1 + e^ε) so that a failure costs at most δ/1000. */
    double failureProbability(PrivacyBudget budget) {
        if (!Double.isNaN(failureProbability)) {
            return failureProbability;
        }
        return 1e-3 * budget.delta() / (1 + Math.exp(Math.min(budget.epsilon(), 700)));
    }

    @Override
    public RunPlan plan(ProblemShape shape, PrivacyBudget budget) {
        Checks.notNull("shape", shape);
        Checks.notNull("budget", budget);
        Perturbation.smoothConvexGll(shape);
        double p = failureProbability(budget);
        double charge = FailureChargedAccountant.charge(budget.epsilon(), p);
        double deltaM = budget.delta() - charge;
        if (!(deltaM > 0)) {
            throw Checks.fail("failure probability term (1 + e^eps) p", "below delta = " + budget.delta(), charge);
        }
        Perturbation pert = Perturbation.plan(shape, budget.epsilon() / 2, deltaM / 2, lambda, noiseRule, "eps/2");
        int n = shape.size();
        double alpha = accuracy;
        if (Double.isNaN(alpha)) {
            double m = shape.domain().radius(shape.dimension());
            if (!Double.isFinite(m)) {
                throw Checks.fail("domain radius M", "finite when the accuracy alpha is not given (alpha = "
                        + "M^2 lambda/n^2)", m);
            }
            alpha = m * m * pert.lambda() / ((double) n * n);
        }
        double r = Math.sqrt(2 * alpha / pert.lambda());
        GaussianEvent out = new GaussianEvent(GaussianMechanism.noiseMultiplier(budget.epsilon() / 2, deltaM / 2));
        SvrgSchedule s = new SvrgSchedule(pert, alpha, r, out, p, epochs, earlyStop);
        Svrg.Schedule inner = Svrg.schedule(pert.lambda(), pert.beta(), shape.domain().isWholeSpace());
        RunParameters.Builder params = ObjectivePerturbation.parameters(shape, pert)
                .put(Param.STEPS, 1L)
                .put(Param.ACCURACY, alpha)
                .put(Param.DISTANCE_BOUND, r)
                .put(Param.NOISE_MULTIPLIER, out.noiseMultiplier())
                .put(Param.SENSITIVITY, s.outputSensitivity())
                .put(Param.SIGMA, out.noiseMultiplier() * s.outputSensitivity())
                .put(Param.LEARNING_RATE, inner.stepSize())
                .put(Param.INNER_STEPS, inner.innerSteps());
        return RunPlan.builder(name(), shape)
                .privacy(ComposedEvent.of(pert.event(), out), relation(), new FailureChargedAccountant(
                        new BasicCompositionAccountant(relation()), p, budget.epsilon()), budget)
                .parameters(params.build())
                .detail(s)
                .build();
    }

    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        SvrgSchedule s = plan.detail(SvrgSchedule.class);
        PrivateRun run = PrivateRun.start(plan, problem, rng, options);
        return run.finish(release(run, new InMemoryPasses(problem.data()), s));
    }

    /** Draws G, runs SVRG to a certified iterate, releases it with output noise. */
    private static DMatrixRMaj release(PrivateRun run, InMemoryPasses passes, SvrgSchedule s) {
        Perturbation pert = s.perturbation();
        int n = passes.size();
        DMatrixRMaj b = new DMatrixRMaj(passes.dimension(), 1);
        run.objectiveNoise(b, pert.sigma() / n, pert.event()); // b = G/n
        PerturbedObjective obj = new PerturbedObjective(passes, pert.loss(), run.problem().domain(), b,
                pert.lambda(), pert.lipschitz(), pert.beta());
        DMatrixRMaj w0 = new DMatrixRMaj(passes.dimension(), 1);
        obj.domain().project(w0);
        int certifiedEpochs = Svrg.epochBudget(pert.lambda(), pert.beta(), pert.lipschitz(), obj.linearNorm(),
                org.dpopt.linalg.Vectors.norm2(w0), obj.domain().radius(obj.dimension()),
                obj.domain().isWholeSpace(), s.alpha(), s.failureProbability());
        if (s.epochs() > 0 && s.epochs() < certifiedEpochs) {
            throw Checks.fail("epochs", "at least the budget " + certifiedEpochs + " that bounds the failure "
                    + "probability by " + s.failureProbability() + " (fewer epochs would make failing a "
                    + "data-dependent release)", s.epochs());
        }
        int budgetEpochs = Math.max(s.epochs(), certifiedEpochs);
        Svrg.Result r = Svrg.solve(obj, passes.data(), s.alpha(), budgetEpochs, s.earlyStop(), run.rng());
        if (!(r.suboptimality() <= s.alpha())) {
            throw new IllegalStateException("SVRG did not certify suboptimality alpha = " + s.alpha()
                    + " within " + budgetEpochs + " epochs; nothing released");
        }
        DMatrixRMaj out = r.w();
        run.diagnose(Diagnostic.CERTIFIED_SUBOPTIMALITY, r.suboptimality());
        run.diagnose(Diagnostic.SOLVER_STEPS, r.epochs());
        run.diagnose(Diagnostic.GRADIENT_EVALUATIONS, r.gradientEvaluations());
        run.gaussian(out, s.outputSensitivity(), s.outputEvent());
        obj.domain().project(out);
        if (run.diagnosticsOn()) {
            run.diagnose(Diagnostic.TRAIN_LOSS, run.problem().empiricalRisk(out));
        }
        run.note("split (eps/2, delta_M/2) objective perturbation + (eps/2, delta_M/2) Gaussian output noise");
        if (s.earlyStop()) {
            run.note("early stop: the epoch count (and the running time) depends on the data and is not covered");
        }
        return out;
    }

    /** A builder initialised with this optimizer's settings (for sweeps). */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.lambda = lambda;
        b.accuracy = accuracy;
        b.noiseRule = noiseRule;
        b.epochs = epochs;
        b.failureProbability = failureProbability;
        b.earlyStop = earlyStop;
        return b.runOptions(options);
    }

    @Override
    public String toString() {
        return "ApproximateObjectivePerturbation(lambda=" + (Double.isNaN(lambda) ? "theorem" : lambda)
                + ", accuracy=" + (Double.isNaN(accuracy) ? "M^2 lambda/n^2" : accuracy) + ", noiseRule=" + noiseRule
                + ", epochs=" + (epochs == 0 ? "certified budget" : epochs) + ", earlyStop=" + earlyStop + ")";
    }

    /** Builder; every setter validates. */
    public static final class Builder extends OptimizerBuilder<Builder> {
        private double lambda = Double.NaN;
        private double accuracy = Double.NaN;
        private ObjectivePerturbationNoise.Rule noiseRule = ObjectivePerturbationNoise.Rule.TIGHT;
        private int epochs = 0;
        private double failureProbability = Double.NaN;
        private boolean earlyStop = false;

        private Builder() {
        }

        @Override
        protected Builder self() {
            return this;
        }

        /** λ &gt; 0 in λ‖w‖² (default: the theorem's value at (ε/2, δ_M/2); required when W is unbounded). */
        public Builder lambda(double l) {
            this.lambda = Checks.positive("lambda", l);
            return this;
        }

        /** Target certified suboptimality α &gt; 0 (default M²λ/n²). */
        public Builder accuracy(double a) {
            this.accuracy = Checks.positive("accuracy", a);
            return this;
        }

        /** TIGHT (default) or KST12. */
        public Builder noiseRule(ObjectivePerturbationNoise.Rule r) {
            this.noiseRule = Checks.notNull("noiseRule", r);
            return this;
        }

        /** A fixed epoch count ≥ 1, at least the certified budget (default: the certified budget). */
        public Builder epochs(int e) {
            this.epochs = Checks.atLeastOne("epochs", e);
            return this;
        }

        /** The failure probability p ∈ (0, 1) the epoch budget guarantees (default 1e-3·δ/(1 + e^ε)). */
        public Builder failureProbability(double pr) {
            this.failureProbability = Checks.openUnit("failureProbability", pr);
            return this;
        }

        /** Stop SVRG once certified (faster; the running time then depends on the data). Default false. */
        public Builder earlyStop(boolean e) {
            this.earlyStop = e;
            return this;
        }

        /** Builds the immutable optimizer. */
        public ApproximateObjectivePerturbation build() {
            return new ApproximateObjectivePerturbation(this);
        }
    }
}
