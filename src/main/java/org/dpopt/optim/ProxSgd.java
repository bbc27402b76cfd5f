package org.dpopt.optim;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.oracle.MoreauEnvelopeOracle;
import org.ejml.data.DMatrixRMaj;

/**
 * A_ProxGD: noisy SGD ({@code NoisySgd}) on the Moreau envelope f_β of a non-smooth convex loss, each
 * per-example gradient computed by an inner subgradient solve of the prox problem
 * ({@link MoreauEnvelopeOracle}, τ = ⌈16L²/α² − 1⌉ inner steps for gradient accuracy α).
 *
 * <pre>
 *   β = (L/D)·min(√(n/2), εn/√(8 d ln(1/δ)))     (the BFTT19 stability limit of noisy SGD; D = M, the radius)
 *   bias  f − f_β ≤ L²/(2β) = O(LD·max(1/√n, √(d ln(1/δ))/(εn)))
 * </pre>
 *
 * <p>Privacy is exactly that of the wrapped noisy SGD: the smoothed gradient is clipped to the same
 * bound (L for the paper preset, the clip norm C in practical mode) before the noisy sum, so the inexact
 * prox changes utility only. Relation and event: those of the wrapped optimizer (add/remove-one, Poisson).
 *
 * <p>Cost: every per-example gradient costs τ loss-gradient evaluations; {@code gradientEvaluations}
 * of the result counts those. With the paper's accuracy α = L/n, τ ≈ 16n², which makes the method
 * super-linear (the reason Phased-SGD with the bisection prox exists); the default α = L/√n (τ ≈ 16n) is
 * a documented relaxation that voids the inexact-gradient stability term of the utility proof
 * ({@code theory-notes/moreau-smoothing.md §4}) but not privacy.
 *
 * <p>Reference: Bassily, Feldman, Talwar, Thakurta, "Private Stochastic Convex Optimization with
 * Optimal Rates", NeurIPS 2019, arXiv:1908.09970, §4; ALGORITHMS.md §2.3.
 */
public final class ProxSgd implements PrivateOptimizer {
    private final PrivateOptimizer base;
    private final double smoothness; // NaN: stability limit
    private final double relativeAccuracy; // α/L; NaN: 1/√n
    private final double comparatorRadius;

    private ProxSgd(Builder b) {
        this.base = b.base;
        this.smoothness = b.smoothness;
        this.relativeAccuracy = b.relativeAccuracy;
        this.comparatorRadius = b.comparatorRadius;
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
     * @param beta β in w
     * @param accuracy α
     * @param innerSteps τ
     * @param smoothed the smoothed loss the noisy SGD runs on
     * @param basePlan the wrapped optimizer's plan on the smoothed shape
     */
    record Plan(double beta, double accuracy, long innerSteps, Loss smoothed, RunPlan basePlan) {
    }

    @Override
    public RunPlan plan(ProblemShape shape, PrivacyBudget budget) {
        Checks.notNull("shape", shape);
        Checks.notNull("budget", budget);
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
        double dd = Double.isFinite(m) ? m : (Double.isNaN(comparatorRadius) ? Math.sqrt(d) : comparatorRadius);
        double beta = smoothness;
        if (Double.isNaN(beta)) {
            double li = Math.log(1 / budget.delta());
            beta = (lip / dd) * Math.min(Math.sqrt(n / 2.0), budget.epsilon() * n / Math.sqrt(8 * d * li));
            beta *= 1 - 1e-12; // stay on the safe side of noisy SGD's own check after rounding
        }
        double alpha = (Double.isNaN(relativeAccuracy) ? 1 / Math.sqrt(n) : relativeAccuracy) * lip;
        long tau = MoreauEnvelopeOracle.innerStepsFor(lip, alpha);
        if (tau > Integer.MAX_VALUE) {
            throw Checks.fail("inner steps 16L^2/alpha^2", "at most " + Integer.MAX_VALUE, tau);
        }
        Loss smoothed = new SmoothedLoss(loss, lip, beta, alpha, d);
        RunPlan basePlan = base.plan(shape.withLoss(smoothed), budget);
        RunParameters params = basePlan.parameters().toBuilder()
                .put(Param.SMOOTHNESS, beta)
                .build();
        return RunPlan.builder(name(), shape)
                .privacy(basePlan.statement(), basePlan.relation(), basePlan.accountant(), budget)
                .parameters(params)
                .budgetBinding(basePlan.budgetBinding())
                .exactSizeRequired(basePlan.exactSizeRequired())
                .detail(new Plan(beta, alpha, tau, smoothed, basePlan))
                .build();
    }

    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        Plan p = plan.detail(Plan.class);
        Problem smoothed = new Problem(problem.data(), p.smoothed(), problem.domain(), problem.declaredSize());
        OptimizationResult r = base.run(smoothed, p.basePlan(), rng);
        return new OptimizationResult(r.solution(), r.privacy(), plan, r.ledger(), r.noise(),
                r.nonPrivateDiagnostics());
    }

    @Override
    public String toString() {
        return "ProxSgd(base=" + base.name() + ", smoothness=" + smoothness + ", relativeAccuracy=" + relativeAccuracy
                + ", comparatorRadius=" + comparatorRadius + ")";
    }

    /**
     * The envelope as a {@link Loss}: gradient from the inner prox solve (scratch per instance, so one
     * instance per plan); value, Lipschitz and convexity of the base loss; smoothness β.
     */
    private static final class SmoothedLoss implements Loss {
        private final Loss base;
        private final double lip;
        private final double beta;
        private final MoreauEnvelopeOracle oracle;

        SmoothedLoss(Loss base, double lip, double beta, double alpha, int d) {
            this.base = base;
            this.lip = lip;
            this.beta = beta;
            this.oracle = MoreauEnvelopeOracle.of(base, lip, beta, alpha, d);
        }

        @Override
        public String name() {
            return base.name() + "-moreau";
        }

        /** f itself (diagnostics only; the envelope differs by at most L²/(2β)). */
        @Override
        public double value(DMatrixRMaj w, Dataset data, int i) {
            return base.value(w, data, i);
        }

        @Override
        public void gradient(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj out) {
            oracle.gradient(w, data, i, out);
        }

        @Override
        public double lipschitz(double rowNormBound) {
            return lip;
        }

        @Override
        public double smoothness(double rowNormBound) {
            return beta;
        }

        @Override
        public Convexity convexity() {
            return Convexity.CONVEX;
        }

        @Override
        public boolean isClassification() {
            return base.isClassification();
        }
    }

    /** Builder; every setter validates. */
    public static final class Builder {
        private PrivateOptimizer base = org.dpopt.optim.sgd.Bftt19Sgd.builder().build();
        private double smoothness = Double.NaN;
        private double relativeAccuracy = Double.NaN;
        private double comparatorRadius = Double.NaN;

        private Builder() {
        }

        /** The noisy SGD run on the envelope (default: BFTT19 paper preset, which needs an ℓ2-ball domain). */
        public Builder noisySgd(PrivateOptimizer sgd) {
            this.base = Checks.notNull("noisySgd", sgd);
            return this;
        }

        /** β of the envelope in w (default: the stability limit above). */
        public Builder smoothness(double beta) {
            this.smoothness = Checks.positive("smoothness", Checks.finite("smoothness", beta));
            return this;
        }

        /** α/L, the inner accuracy relative to L (default 1/√n; the paper's is 1/n). */
        public Builder relativeAccuracy(double a) {
            this.relativeAccuracy = Checks.positive("relativeAccuracy", Checks.finite("relativeAccuracy", a));
            return this;
        }

        /** D used for β when the domain is unbounded (default √d, as for {@link PhasedSgd}). */
        public Builder comparatorRadius(double r) {
            this.comparatorRadius = Checks.positive("comparatorRadius", Checks.finite("comparatorRadius", r));
            return this;
        }

        /** Builds the immutable optimizer. */
        public ProxSgd build() {
            return new ProxSgd(this);
        }
    }
}
