package org.dpopt.optim.smoothing;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.Diagnostics;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.AccountedBuilder;
import org.dpopt.optim.sgd.Bftt19Sgd;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.oracle.GllBisectionProx;
import org.dpopt.oracle.MoreauEnvelopeOracle;
import org.dpopt.oracle.SmoothedLoss;

/**
 * A_ProxGD: noisy SGD on the Moreau envelope f_β of a non-smooth convex loss, each per-example gradient
 * computed by an inner subgradient solve of the prox problem ({@link MoreauEnvelopeOracle},
 * τ = ⌈16L²/α² − 1⌉ inner steps for gradient accuracy α).
 *
 * <pre>
 *   β = (L/D)·min(√(n/2), εn/√(8 d ln(1/δ)))     (the BFTT19 stability limit of noisy SGD; D = M, the radius)
 *   bias  f − f_β ≤ L²/(2β) = O(LD·max(1/√n, √(d ln(1/δ))/(εn)))
 * </pre>
 *
 * <p>The wrapped noisy SGD is the BFTT19 paper preset ({@link Bftt19Sgd}, default) or practical DP-SGD
 * ({@link NoisySgd}), planned on the envelope's shape (L, β) and run on the envelope: each run computes
 * the envelope's gradients with its own oracle ({@link MoreauEnvelopeOracle#newOracle}).
 *
 * <p>Privacy is exactly that of the wrapped noisy SGD: the smoothed gradient is clipped to the same
 * bound (L for the paper preset, the clip norm C in practical mode) before the noisy sum, so the inexact
 * prox changes utility only. Relation and event: those of the wrapped optimizer (add/remove-one, Poisson).
 *
 * <p>Cost: every per-example gradient costs τ loss-gradient evaluations. With the paper's accuracy
 * α = L/n, τ ≈ 16n², which makes the method super-linear (the reason Phased-SGD with the bisection prox
 * exists); the default α = L/√n (τ ≈ 16n) is a documented relaxation that voids the inexact-gradient
 * stability term of the utility proof ({@code theory-notes/moreau-smoothing.md §4}) but not privacy.
 * In practical mode a generalized linear loss φ(⟨w, x⟩, y) is smoothed instead by the one-dimensional
 * bisection prox ({@link GllBisectionProx}, {@link InnerProx#AUTO}): φ's scalar envelope with parameter
 * β/R² (R the row-norm bound) is β-smooth in w, L-Lipschitz and within L²/(2β) of the loss, the same
 * bounds as the envelope in w, and its gradient is computed to the paper's accuracy α = L/n in
 * ⌈log₂(2n)⌉ + 2 scalar calls: linear in n instead of quadratic ({@code theory-notes/moreau-smoothing.md
 * §5}). The inner solver changes utility and cost only: every smoothed gradient is clipped to C before
 * the noisy sum, whatever computed it.
 *
 * <p>Reference: Bassily, Feldman, Talwar, Thakurta, "Private Stochastic Convex Optimization with
 * Optimal Rates", NeurIPS 2019, arXiv:1908.09970, §4.
 */
public final class ProxSgd implements PrivateOptimizer {
    /** How the per-example prox is solved. */
    public enum InnerProx {
        /**
         * The bisection prox for a generalized linear loss when practical DP-SGD is wrapped; the inner
         * subgradient solve otherwise (the paper preset, any other loss).
         */
        AUTO,
        /** Always the inner subgradient solve ({@link MoreauEnvelopeOracle}), as in BFTT19. */
        SUBGRADIENT
    }

    private final PrivateOptimizer base;
    private final Builder config;

    private ProxSgd(Builder b) {
        this.config = b.copy();
        this.base = b.practical != null ? b.practical.toBuilder().runOptions(b.runOptions()).build()
                : Bftt19Sgd.builder().preset(Preset.PAPER).accountant(b.accountant()).runOptions(b.runOptions()).build();
    }

    /** A builder: BFTT19 paper preset of noisy SGD, β at the stability limit, α = L/√n. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return "prox-sgd";
    }

    @Override
    public NeighboringRelation relation() {
        return base.relation();
    }

    /**
     * The resolved smoothing.
     *
     * @param envelope f_β, the loss the noisy SGD runs on ({@link MoreauEnvelopeOracle} or
     *                 {@link GllBisectionProx})
     * @param innerSteps the inner iterations of one smoothed gradient: τ subgradient steps, or the
     *                   K + 2 scalar calls of the bisection at most
     * @param basePlan the wrapped optimizer's plan on the envelope's shape
     */
    record Plan(SmoothedLoss envelope, int innerSteps, RunPlan basePlan) {
    }

    @Override
    public RunPlan plan(ProblemShape shape, PrivacyBudget budget) {
        Checks.notNull("shape", shape);
        Checks.notNull("budget", budget);
        shape.requireScalarModel(name());
        int n = shape.size();
        int d = shape.dimension();
        Loss loss = shape.loss();
        if (loss.convexity() != Loss.Convexity.CONVEX) {
            throw Checks.fail("convexity of " + loss.name(), "CONVEX for prox-sgd", loss.convexity());
        }
        double lip = shape.lipschitz();
        if (!(lip > 0) || Double.isInfinite(lip)) {
            throw Checks.fail("Lipschitz constant L", "finite and positive", lip);
        }
        double m = shape.domain().radius(d);
        double dd = Double.isFinite(m) ? m
                : (Double.isNaN(config.comparatorRadius) ? Math.sqrt(d) : config.comparatorRadius);
        double beta = config.smoothness;
        if (Double.isNaN(beta)) {
            double li = Math.log(1 / budget.delta());
            beta = (lip / dd) * Math.min(Math.sqrt(n / 2.0), budget.epsilon() * n / Math.sqrt(8 * d * li));
            beta *= 1 - 1e-12; // stay on the safe side of noisy SGD's own check after rounding
        }
        boolean bisection = config.innerProx == InnerProx.AUTO && base instanceof NoisySgd
                && loss instanceof GeneralizedLinearLoss && !(loss instanceof SmoothedLoss);
        double relative = Double.isNaN(config.relativeAccuracy) ? (bisection ? 1.0 / n : 1 / Math.sqrt(n))
                : config.relativeAccuracy;
        double alpha = relative * lip;
        SmoothedLoss envelope;
        int inner;
        if (bisection) {
            double rows = shape.rowNormBound();
            GllBisectionProx prox = GllBisectionProx.of((GeneralizedLinearLoss) loss, beta / (rows * rows), alpha / rows);
            envelope = prox;
            inner = prox.maxSubgradientCalls();
        } else {
            MoreauEnvelopeOracle moreau = MoreauEnvelopeOracle.of(loss, lip, beta, alpha, d);
            envelope = moreau;
            inner = moreau.innerSteps();
        }
        RunPlan basePlan = base.plan(shape.withLoss(envelope), budget);
        RunParameters params = basePlan.parameters().toBuilder()
                .put(Param.SMOOTHNESS, beta)
                .put(Param.SMOOTHING_ACCURACY, alpha)
                .put(Param.INNER_STEPS, inner)
                .put(Param.INNER_PROX, bisection ? "bisection" : "subgradient")
                .build();
        return RunPlan.builder(name(), shape)
                .privacy(basePlan.statement(), basePlan.relation(), basePlan.accountant(), budget)
                .parameters(params)
                .budgetBinding(basePlan.budgetBinding())
                .exactSizeRequired(basePlan.exactSizeRequired())
                .detail(new Plan(envelope, inner, basePlan))
                .build();
    }

    /**
     * Runs the wrapped noisy SGD on the envelope of the problem's loss. The result carries this plan;
     * with diagnostics on, {@link Diagnostic#INNER_GRADIENT_EVALUATIONS} = τ × the per-example count.
     */
    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        Checks.notNull("problem", problem);
        Plan p = plan.detail(Plan.class);
        if (!problem.loss().equals(plan.shape().loss())) {
            throw Checks.fail("loss", "the planned " + plan.shape().loss().name(), problem.loss().name());
        }
        Problem smoothed = problem.withLoss(p.envelope());
        OptimizationResult r = base.run(smoothed, p.basePlan(), rng);
        Diagnostics diag = r.nonPrivateDiagnostics();
        if (diag.has(Diagnostic.GRADIENT_EVALUATIONS)) {
            Diagnostics.Builder b = Diagnostics.builder();
            for (Diagnostic k : Diagnostic.values()) {
                if (diag.has(k)) {
                    b.put(k, diag.get(k));
                }
            }
            diag = b.put(Diagnostic.INNER_GRADIENT_EVALUATIONS,
                    diag.get(Diagnostic.GRADIENT_EVALUATIONS) * p.innerSteps()).build();
        }
        return new OptimizationResult(r.solution(), r.privacy(), plan, r.ledger(), r.noise(), diag, r.secureDraws());
    }

    @Override
    public String toString() {
        return "ProxSgd(base=" + base + ", smoothness=" + config.smoothness
                + ", relativeAccuracy=" + config.relativeAccuracy + ", comparatorRadius=" + config.comparatorRadius
                + ", innerProx=" + config.innerProx + ")";
    }

    /**
     * Builder; every setter validates. The shared settings ({@code diagnostics}, {@code mutation}) are
     * this builder's: they replace those of a given {@link #noisySgd}. {@code accountant}: the
     * add/remove-one accountant of the paper preset (default PLD; practical mode uses its own).
     */
    public static final class Builder extends AccountedBuilder<Builder> {
        private NoisySgd practical;
        private double smoothness = Double.NaN; // NaN: stability limit
        private double relativeAccuracy = Double.NaN; // α/L; NaN: 1/√n
        private double comparatorRadius = Double.NaN; // NaN: √d
        private InnerProx innerProx = InnerProx.AUTO;

        private Builder() {
            super(new PldAccountant(), NeighboringRelation.ADD_OR_REMOVE_ONE, "prox-sgd");
        }

        /** How the per-example prox is solved (default {@link InnerProx#AUTO}). */
        public Builder innerProx(InnerProx p) {
            this.innerProx = Checks.notNull("innerProx", p);
            return this;
        }

        /**
         * Practical mode: run this DP-SGD (its sampler, batch size, epochs, clip norm, step, accountant)
         * on the envelope instead of the BFTT19 paper preset.
         */
        public Builder noisySgd(NoisySgd sgd) {
            this.practical = Checks.notNull("noisySgd", sgd);
            return this;
        }

        /** β &gt; 0 of the envelope in w (default: the stability limit above). */
        public Builder smoothness(double beta) {
            this.smoothness = Checks.positive("smoothness", beta);
            return this;
        }

        /**
         * α/L &gt; 0, the inner accuracy relative to L (default: the paper's 1/n with the bisection prox,
         * 1/√n with the subgradient solve).
         */
        public Builder relativeAccuracy(double a) {
            this.relativeAccuracy = Checks.positive("relativeAccuracy", a);
            return this;
        }

        /** D &gt; 0 used for β when the domain is unbounded (default √d, as for {@link PhasedSgd}). */
        public Builder comparatorRadius(double r) {
            this.comparatorRadius = Checks.positive("comparatorRadius", r);
            return this;
        }

        /** Builds the immutable optimizer. */
        public ProxSgd build() {
            return new ProxSgd(this);
        }
    }
}
