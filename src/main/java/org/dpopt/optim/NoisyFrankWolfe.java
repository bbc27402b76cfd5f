package org.dpopt.optim;

import java.util.HashMap;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.AdvancedCompositionAccountant;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyLedger;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.Polytope;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Problem;
import org.dpopt.noise.ReportNoisyMax;
import org.dpopt.oracle.GllBisectionProx;
import org.ejml.data.DMatrixRMaj;

/**
 * Noisy Frank–Wolfe with report-noisy-max vertex selection over a polytope W = conv(V) (Bassily,
 * Guzmán, Menart, "Differentially Private Stochastic Optimization: New Results in Convex and
 * Non-Convex Settings", NeurIPS 2021, arXiv:2107.05585, Algorithm 3 / Theorem 9; the scheme goes back
 * to Talwar, Thakurta, Zhang, "Nearly-Optimal Private LASSO", NeurIPS 2015).
 *
 * <p>Iteration (w_0 = v_0): {@code g_t = ∇F̂(w_t)} (full batch), {@code j_t = argmin_j ⟨v_j, g_t⟩ + Lap(b)}
 * by report-noisy-max over the J vertices, {@code w_{t+1} = (1 − μ_t) w_t + μ_t v_{j_t}} with
 * μ_t = 2/(t+2). Output w_T. For the ℓ1 ball this costs O(nd) per step for the gradient and O(d) for
 * the selection; margins ⟨w_t, x_i⟩ are updated in O(n) from the chosen vertex.
 *
 * <p>Assumptions: a GLL φ(⟨w,x⟩, y) with |φ′| ≤ L₀, rows with ‖x‖₂ ≤ R (the dataset's declared bound).
 * A smooth φ (|φ″| ≤ β₀) is used as is; a non-smooth convex φ is replaced by its Moreau envelope with
 * parameter β ∝ √(nε) ({@link #smoothingParameter}), whose derivative {@link GllBisectionProx} computes
 * by bisection to accuracy L₀/n (Algorithm 1 of the paper); the derivative stays in [−L₀, L₀], so the
 * sensitivity below is unchanged.
 *
 * <p>Privacy (replace-one, sound preset): each score ⟨v, g_t⟩ changes by at most
 * {@code Δ = 2 L₀ · min(R max_v‖v‖₂, B∞ max_v‖v‖₁) / n} between neighbours (B∞ an optional declared bound
 * on ‖x‖_∞, {@link Builder#supNormBound}) (a full-batch mean; scores may move in either
 * direction), so RNM with b = 2Δ/ε0 is ε0-DP; the T adaptive steps are composed by the
 * {@link AdvancedCompositionAccountant} (DRV and the exact Kairouz–Oh–Viswanath bound), ε0 being the
 * largest per-step budget the accountant certifies within (ε, δ). Stated event:
 * T × EpsilonDeltaEvent(ε0, 0).
 *
 * <p>Parameters (derived in {@code theory-notes/frank-wolfe.md}): T balances the curvature term
 * 2Γ/(T+2), Γ = β₀·min(R·diam₂(W), B∞·2max‖v‖₁)², against the selection error 2b ln J:
 * {@code T = ⌈(Γ n ε / (8√2 L₀·min(R max‖v‖₂, B∞ max‖v‖₁)·√ln(1/δ)·ln J))^{2/3}⌉}, clamped to
 * [1, maxIterations].
 */
public final class NoisyFrankWolfe extends LegacyOptimizer {
    private final java.util.function.IntFunction<Polytope> domain;
    private final long iterations;
    private final long maxIterations;
    private final PrivacyAccountant accountant;
    private final boolean diagnostics;
    private final Dataset population;
    private final double supBound;

    private NoisyFrankWolfe(Builder b) {
        this.supBound = b.supBound;
        this.domain = b.domain;
        this.iterations = b.iterations;
        this.maxIterations = b.maxIterations;
        this.accountant = b.accountant;
        this.diagnostics = b.diagnostics;
        this.population = b.population;
    }

    /** A builder with the documented defaults. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public String name() {
        return "noisy-frank-wolfe";
    }

    @Override
    public NeighboringRelation relation() {
        return NeighboringRelation.REPLACE_ONE;
    }

    /** Run parameters, all from public constants. */
    record Plan(Polytope set, GeneralizedLinearLoss loss, long steps, double sensitivity, double eps0,
            ReportNoisyMax rnm, double smoothing) {
    }

    /**
     * max_{v, x} |⟨v, x⟩| over vertices and admissible rows: min(R·max‖v‖₂, B∞·max‖v‖₁), with B∞ the
     * declared ℓ∞ row bound (+∞ when not declared).
     */
    static double vertexRowBound(Dataset data, Polytope set, double supBound) {
        return Math.min(data.rowNormBound() * set.maxVertexNorm2(), supBound * set.maxVertexNorm1());
    }

    /** The replace-one score sensitivity Δ = 2 L₀ · max|⟨v, x⟩| / n (no ℓ∞ bound declared). */
    static double sensitivity(GeneralizedLinearLoss loss, Dataset data, Polytope set) {
        return sensitivity(loss, data, set, Double.POSITIVE_INFINITY);
    }

    /** The replace-one score sensitivity Δ = 2 L₀ · min(R max‖v‖₂, B∞ max‖v‖₁) / n. */
    static double sensitivity(GeneralizedLinearLoss loss, Dataset data, Polytope set, double supBound) {
        return 2 * loss.scalarLipschitz() * vertexRowBound(data, set, supBound) / data.size();
    }

    /** The theorem's iteration count (before clamping), no ℓ∞ bound declared. */
    static double theoremSteps(GeneralizedLinearLoss loss, Dataset data, Polytope set, PrivacyBudget budget) {
        return theoremSteps(loss, data, set, budget, Double.POSITIVE_INFINITY);
    }

    /**
     * The theorem's iteration count: Γ = β₀·min(R·diam₂, B∞·2max‖v‖₁)² (curvature of the empirical risk
     * on W), noise coefficient from Δ.
     */
    static double theoremSteps(GeneralizedLinearLoss loss, Dataset data, Polytope set, PrivacyBudget budget,
            double supBound) {
        double spread = Math.min(data.rowNormBound() * set.diameter(), supBound * 2 * set.maxVertexNorm1());
        double gamma = loss.scalarSmoothness() * spread * spread;
        double num = gamma * data.size() * budget.epsilon();
        double den = 8 * Math.sqrt(2) * loss.scalarLipschitz() * vertexRowBound(data, set, supBound)
                * Math.sqrt(Math.log(1 / budget.delta())) * Math.log(set.vertexCount() + 1.0);
        return Math.pow(num / den, 2.0 / 3.0);
    }

    Plan plan(Problem problem, PrivacyBudget budget) {
        Checks.notNull("budget", budget);
        GeneralizedLinearLoss loss = FrankWolfeSupport.requireGll(problem, name());
        Polytope set = FrankWolfeSupport.resolvePolytope(
                domain == null ? null : domain.apply(problem.dimension()), problem, name());
        double beta = Double.NaN;
        if (!Double.isFinite(loss.scalarSmoothness())) {
            beta = smoothingParameter(loss, problem.data(), set, budget, supBound);
            loss = GllBisectionProx.of(loss, beta, loss.scalarLipschitz() / problem.size());
        }
        if (accountant.relation() != NeighboringRelation.REPLACE_ONE) {
            throw Checks.fail("accountant relation", "REPLACE_ONE", accountant.relation());
        }
        long t = iterations > 0 ? iterations
                : (long) Math.max(1, Math.min(maxIterations,
                        Math.ceil(theoremSteps(loss, problem.data(), set, budget, supBound))));
        double delta = sensitivity(loss, problem.data(), set, supBound);
        double z = Calibration.noiseMultiplier(accountant, zz -> stepsEvent(1 / zz, t), budget.epsilon(),
                budget.delta(), 1e-6);
        double eps0 = 1 / z;
        return new Plan(set, loss, t, delta, eps0, new ReportNoisyMax(delta, eps0, false, relation()), beta);
    }

    /**
     * The Moreau smoothing β for a non-smooth GLL: minimizes A·β^{1/3} + L₀²/(2β), where A·β^{1/3} is the
     * balanced value 1.89·(2ΓNoise²)^{1/3} of the FW and selection terms (Γ = βR²diam₂²) and L₀²/(2β) the
     * smoothing bias, giving β = (3L₀²/(2A))^{3/4} ∝ √(nε) (theory-notes/frank-wolfe.md §2.3).
     */
    static double smoothingParameter(GeneralizedLinearLoss loss, Dataset data, Polytope set, PrivacyBudget budget,
            double supBound) {
        double l0 = loss.scalarLipschitz();
        double spread = Math.min(data.rowNormBound() * set.diameter(), supBound * 2 * set.maxVertexNorm1());
        double c = 16 * Math.sqrt(2) * l0 * vertexRowBound(data, set, supBound)
                * Math.sqrt(Math.log(1 / budget.delta())) * Math.log(set.vertexCount() + 1.0)
                / (data.size() * budget.epsilon());
        double a = 1.89 * Math.cbrt(2 * spread * spread) * Math.pow(c, 2.0 / 3.0);
        return Math.pow(3 * l0 * l0 / (2 * a), 0.75);
    }

    private static DpEvent stepsEvent(double eps0, long t) {
        return DpEvents.normalize(new SelfComposedEvent(new EpsilonDeltaEvent(eps0, 0), t));
    }

    @Override
    public DpEvent privacyEvent(Problem problem, PrivacyBudget budget) {
        Plan p = plan(problem, budget);
        return stepsEvent(p.eps0(), p.steps());
    }

    @Override
    public OptimizationResult optimize(Problem problem, PrivacyBudget budget, UniformRandomProvider rng) {
        Checks.notNull("rng", rng);
        Plan p = plan(problem, budget);
        Dataset data = problem.data();
        GeneralizedLinearLoss loss = p.loss();
        Polytope set = p.set();
        int n = data.size();
        int d = data.dimension();
        if (Double.isFinite(supBound)) {
            checkSupBound(data, supBound);
        }
        int nv = set.vertexCount();
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        set.vertex(0, w);
        double[] margins = new double[n];
        for (int i = 0; i < n; i++) {
            margins[i] = set.vertexDotRow(0, data, i);
        }
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        double[] scores = new double[nv];
        PrivacyLedger ledger = new PrivacyLedger();
        DpEvent stepEvent = p.rnm().event();
        for (long t = 0; t < p.steps(); t++) {
            java.util.Arrays.fill(g.data, 0.0);
            for (int i = 0; i < n; i++) {
                data.addScaledRow(i, loss.derivative(margins[i], data.label(i)) / n, g);
            }
            set.scores(g, scores);
            int j = p.rnm().argmin(scores, nv, rng);
            ledger.record(stepEvent);
            double mu = 2.0 / (t + 2);
            set.moveToward(j, mu, w);
            for (int i = 0; i < n; i++) {
                margins[i] = (1 - mu) * margins[i] + mu * set.vertexDotRow(j, data, i);
            }
        }
        DpEvent recorded = ledger.build();
        PrivacyReport report = FrankWolfeSupport.reportWithinBudget(accountant, recorded, budget);
        Map<String, Double> params = new HashMap<>();
        params.put("steps", (double) p.steps());
        params.put("epsilon_per_step", p.eps0());
        params.put("score_sensitivity", p.sensitivity());
        params.put("laplace_scale", p.rnm().scale());
        params.put("vertices", (double) nv);
        if (Double.isFinite(supBound)) {
            params.put("sup_norm_bound", supBound);
        }
        if (!Double.isNaN(p.smoothing())) {
            params.put("smoothing_beta", p.smoothing());
        }
        Map<String, Double> diag = FrankWolfeSupport.riskDiagnostics(diagnostics, problem, population, w);
        if (diagnostics) {
            if (Double.isNaN(p.smoothing())) {
                diag.put("frank_wolfe_gap", FrankWolfeSupport.frankWolfeGap(problem, set, w));
            } else {
                diag.put("frank_wolfe_gap_smoothed", FrankWolfeSupport.frankWolfeGap(
                        Problem.of(data, loss, set), set, w));
            }
        }
        return result(problem, budget, w, report, recorded, p.steps(), p.steps() * n, params, diag);
    }

    /**
     * Refuses data violating the declared ℓ∞ bound, as {@link Dataset} refuses rows above its declared ℓ2
     * bound: the bound is a public promise about the data, not a statistic of it.
     */
    static void checkSupBound(Dataset data, double bound) {
        for (int i = 0; i < data.size(); i++) {
            for (int j = 0; j < data.dimension(); j++) {
                double v = Math.abs(data.feature(i, j));
                if (!(v <= bound)) {
                    throw Checks.fail("|feature[" + i + "][" + j + "]|", "at most the declared sup-norm bound "
                            + bound, v);
                }
            }
        }
    }

    /** Builder; every setter validates (shared setters in {@link FrankWolfeBuilder}). */
    public static final class Builder extends FrankWolfeBuilder<Polytope, Builder> {
        private long iterations;
        private long maxIterations = 10_000;
        private double supBound = Double.POSITIVE_INFINITY;

        private Builder() {
            super(new AdvancedCompositionAccountant(NeighboringRelation.REPLACE_ONE));
        }

        /** Fixes T ≥ 1 instead of the theorem's value. */
        public Builder iterations(long t) {
            this.iterations = Checks.atLeastOne("iterations", t);
            return this;
        }

        /** Upper clamp on the theorem's T (default 10000; the cost is n·T). */
        public Builder maxIterations(long t) {
            this.maxIterations = Checks.atLeastOne("maxIterations", t);
            return this;
        }

        /**
         * Declares a public bound B∞ ≥ ‖x‖_∞ on every row (the setting of the paper, ‖x‖_∞ ≤ 1); then
         * Δ = 2L₀·min(R max‖v‖₂, B∞ max‖v‖₁)/n. Rows violating it are refused when the run starts.
         */
        public Builder supNormBound(double b) {
            this.supBound = Checks.positive("supNormBound", b);
            return this;
        }

        /** Builds the immutable optimizer. */
        public NoisyFrankWolfe build() {
            return new NoisyFrankWolfe(this);
        }
    }
}
