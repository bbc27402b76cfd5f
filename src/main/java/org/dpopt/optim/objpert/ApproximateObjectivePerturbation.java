package org.dpopt.optim.objpert;

import org.dpopt.accounting.ComposedEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.GaussianMechanism;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.Preset;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.oracle.DataPasses;
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
 * <p>Assumptions as for {@link ObjectivePerturbation}, with β ≤ (ε/2)·n·λ.
 *
 * <p>No data-dependent event: the epoch budget E is a function of public constants and of the public
 * bound B = σ_G√(d + 2√(d ln(2/p)) + 2 ln(2/p)) on ‖G‖ (never of G itself), chosen so that SVRG fails to
 * certify α with probability at most p/2 whenever ‖G‖ ≤ B; with P[‖G‖ &gt; B] ≤ p/2, a run fails with
 * probability at most p on every dataset, and then releases the data-independent Π_W(Π_W(0) + H).
 * The plan sets aside (1 + e^ε)p of δ first: δ_M = δ − (1 + e^ε)p. Without early stopping every run
 * takes exactly E epochs; the realized counts and certificates are non-private diagnostics.
 *
 * <p>Presets: {@link Preset#PRACTICAL} (default) gives s = {@value #PRACTICAL_OBJECTIVE_SHARE} of ε to the
 * perturbation and sets α = λr²/2 with r = τ·σ_G/(2nλ), τ = {@value #PRACTICAL_RELATIVE_DISTANCE} (the
 * output noise is then negligible), λ as for {@link ObjectivePerturbation}'s practical rule at (sε, δ_M/2);
 * {@link Preset#PAPER} the even split s = 1/2, α = M²λ/n² and the theorem's λ over a bounded domain.
 *
 * <p>Privacy: replace-one; statement Composed((ε/2, δ_M/2)-DP, Gaussian(z_H)), reported by basic
 * composition plus the failure charge.
 */
public final class ApproximateObjectivePerturbation extends PassesOptimizer<SvrgSchedule, ApproximateObjectivePerturbation.Builder> {

    /** The practical preset's share s of ε for the perturbation (the output noise gets (1 − s)ε). */
    public static final double PRACTICAL_OBJECTIVE_SHARE = 0.9;

    /**
     * τ of the practical accuracy rule: α = λr²/2 with r = τ·σ_G/(2nλ), so the certified distance r is τ
     * times the per-coordinate scale σ_G/(2nλ) of the minimizer's own perturbation.
     */
    public static final double PRACTICAL_RELATIVE_DISTANCE = 1e-3;

    private ApproximateObjectivePerturbation(Builder b) {
        super("objective-perturbation-svrg", SvrgSchedule.class, b);
    }

    /** A builder (theorem λ, α = M²λ/n², tight noise, certified epoch budget). */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The largest move of the perturbed objective's exact minimizer caused by the secure sampler's
     * output grid on b = G/n: each coordinate of b is rounded to a grid γ ≤ (σ/n)·2⁻⁴⁰ (the noise
     * source's objective-noise grid), so ‖e‖ ≤ γ√d/2 and the 2λ-strongly convex objective's minimizer
     * moves by at most ‖e‖/(2λ). Added to the distance bound r in every mode (it is below 2⁻⁴⁰ of the
     * noise scale), so the output noise covers it and seeded and secure runs share one plan.
     */
    static double gridShift(ProblemShape shape, Perturbation pert) {
        double gridBound = pert.sigma() / shape.size() * 0x1p-40;
        return gridBound * Math.sqrt(shape.dimension()) / 2 / (2 * pert.lambda());
    }

    @Override
    protected RunPlan planFor(ProblemShape shape, PrivacyBudget budget) {
        Perturbation.smoothConvexGll(shape);
        FailureBudget failure = settings.failure(budget);
        double deltaM = failure.remainingDelta();
        double share = share();
        double epsObjective = share * budget.epsilon();
        Perturbation pert = settings.plan(shape, epsObjective, deltaM / 2, share == 0.5 ? "eps/2" : share + "*eps",
                options().mutation());
        double alpha = accuracy(shape, pert);
        double r = Math.sqrt(2 * alpha / pert.lambda()) + gridShift(shape, pert);
        GaussianEvent out = new GaussianEvent(GaussianMechanism.noiseMultiplier(budget.epsilon() - epsObjective,
                deltaM / 2));
        double bound = ObjectivePerturbationNoise.noiseNormBound(pert.sigma(), shape.dimension(),
                failure.probability() / 2);
        int e = epochs(shape, pert, bound, failure.probability(), alpha);
        SvrgSchedule s = new SvrgSchedule(pert, alpha, r, out, e, config.earlyStop);
        Svrg.Schedule inner = Svrg.schedule(pert.lambda(), pert.beta(), shape.domain().isWholeSpace());
        RunParameters.Builder params = failure.publish(settings.parameters(shape, pert), bound)
                .put(Param.EPOCHS, (long) e)
                .put(Param.INNER_STEPS, inner.innerSteps())
                .put(Param.STEPS, e * inner.innerSteps())
                .put(Param.LEARNING_RATE, inner.stepSize())
                .put(Param.ACCURACY, alpha)
                .put(Param.DISTANCE_BOUND, r)
                .put(Param.NOISE_MULTIPLIER, out.noiseMultiplier())
                .put(Param.SENSITIVITY, s.outputSensitivity())
                .put(Param.SIGMA, out.noiseMultiplier() * s.outputSensitivity());
        return RunPlan.builder(name(), shape)
                .privacy(ComposedEvent.of(pert.event(), out), relation(), failure.accountant(), budget)
                .parameters(params.build())
                .detail(s)
                .build();
    }

    /** s: as set, else 1/2 (paper) or {@value #PRACTICAL_OBJECTIVE_SHARE} (practical). */
    private double share() {
        if (!Double.isNaN(config.objectiveShare)) {
            return config.objectiveShare;
        }
        return settings.preset() == Preset.PAPER ? 0.5 : PRACTICAL_OBJECTIVE_SHARE;
    }

    /**
     * α: as set; else the paper's M²λ/n² (M the domain's radius), or the practical λr²/2 with
     * r = τ·σ_G/(2nλ).
     */
    private double accuracy(ProblemShape shape, Perturbation pert) {
        if (!Double.isNaN(config.accuracy)) {
            return config.accuracy;
        }
        double lam = pert.lambda();
        double n = shape.size();
        if (settings.preset() == Preset.PRACTICAL) {
            double r = PRACTICAL_RELATIVE_DISTANCE * pert.sigma() / (2 * n * lam);
            return lam * r * r / 2;
        }
        double m = shape.domain().radius(shape.dimension());
        if (!Double.isFinite(m)) {
            throw Checks.fail("domain radius M", "finite when the accuracy alpha is not given (alpha = "
                    + "M^2 lambda/n^2)", m);
        }
        return m * m * lam / (n * n);
    }

    /**
     * E: the certified budget for ‖b‖ ≤ B/n and failure probability p/2 (public), or the user's fixed
     * count if it is at least that.
     */
    private int epochs(ProblemShape shape, Perturbation pert, double bound, double p, double alpha) {
        int d = shape.dimension();
        DMatrixRMaj w0 = new DMatrixRMaj(d, 1);
        shape.domain().project(w0);
        int certified = Svrg.epochBudget(pert.lambda(), pert.beta(), pert.lipschitz(),
                bound / shape.size(), Vectors.norm2(w0), shape.domain().radius(d),
                shape.domain().isWholeSpace(), alpha, p / 2);
        if (config.epochs > 0 && config.epochs < certified) {
            throw Checks.fail("epochs", "at least the certified budget " + certified + " that bounds the failure "
                    + "probability by " + p + " (fewer epochs would leave a failure of unbounded "
                    + "probability)", config.epochs);
        }
        return Math.max(config.epochs, certified);
    }

    /**
     * Draws G, runs SVRG for the planned epochs, and releases the certified iterate plus H; if no
     * iterate is certified, Π_W(0) + H instead (a data-independent point, same draws).
     */
    @Override
    DMatrixRMaj release(PrivateRun run, DataPasses passes, SvrgSchedule s) {
        PerturbedObjective obj = s.perturbation().draw(run, passes);
        Svrg.Result r = Svrg.solve(obj, s.alpha(), s.epochs(), s.earlyStop(), run.rng());
        boolean certified = r.suboptimality() <= s.alpha();
        DMatrixRMaj out = r.w();
        if (!certified) {
            Vectors.zero(out);
            obj.domain().project(out);
        }
        run.diagnose(Diagnostic.SOLVER_FALLBACK, certified ? 0 : 2);
        run.diagnose(Diagnostic.CERTIFIED_SUBOPTIMALITY, r.suboptimality());
        run.diagnose(Diagnostic.SOLVER_STEPS, r.epochs());
        run.diagnose(Diagnostic.GRADIENT_EVALUATIONS, r.gradientEvaluations());
        run.gaussian(out, s.outputSensitivity(), s.outputEvent());
        obj.domain().project(out);
        if (run.diagnosticsOn()) {
            run.diagnose(Diagnostic.TRAIN_LOSS, passes.meanLoss(obj.loss(), out));
        }
        run.note(s.splitNote());
        if (s.earlyStop()) {
            run.note("early stop: the running time depends on the data and is not covered");
        }
        return out;
    }

    @Override
    public String toString() {
        return "ApproximateObjectivePerturbation(" + settings.describe()
                + ", objectiveShare=" + share()
                + ", accuracy=" + (Double.isNaN(config.accuracy) ? "rule" : config.accuracy)
                + ", noiseRule=" + settings.noiseRule()
                + ", epochs=" + (config.epochs == 0 ? "certified budget" : config.epochs)
                + ", earlyStop=" + config.earlyStop + ")";
    }

    /** Builder; every setter validates. */
    public static final class Builder extends PerturbationBuilder<Builder> {
        private double objectiveShare = Double.NaN; // NaN: the preset's
        private double accuracy = Double.NaN; // NaN: the preset's rule
        private int epochs = 0; // 0: certified budget
        private boolean earlyStop = false;

        private Builder() {
        }

        /**
         * s ∈ (0, 1), the share of ε given to the perturbation; the output noise gets (1 − s)ε; δ_M is
         * split evenly (default: the preset's). Basic composition holds for every split.
         */
        public Builder objectiveShare(double share) {
            this.objectiveShare = Checks.inRange("objectiveShare", share, 1e-3, 1 - 1e-3);
            return this;
        }

        /** Target certified suboptimality α &gt; 0 (default: the preset's rule). */
        public Builder accuracy(double a) {
            this.accuracy = Checks.positive("accuracy", a);
            return this;
        }

        /** A fixed epoch count ≥ 1, at least the certified budget (refused otherwise; default: that budget). */
        public Builder epochs(int e) {
            this.epochs = Checks.atLeastOne("epochs", e);
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
