package org.dpopt.optim.smoothing;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.BasicCompositionAccountant;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.BaseOptimizer;
import org.dpopt.optim.core.Mutation;
import org.dpopt.optim.core.PresetBuilder;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.oracle.ExactGradientOracle;
import org.dpopt.oracle.GllBisectionProx;
import org.dpopt.oracle.GradientOracle;
import org.dpopt.sampling.RecordOrder;
import org.ejml.data.DMatrixRMaj;

/**
 * Phased-SGD (iterative localization): k = ⌈log₂ n⌉ phases on disjoint chunks, one pass of projected
 * SGD per phase with geometrically shrinking steps, the averaged iterate released with Gaussian noise.
 *
 * <pre>
 *   η = (D/L)·min(4/√n, ε/√(r ln(1/δ))),  n_i = max(1, ⌊n/2^i⌋),  η_i = η/4^i,   i = 1..k
 *   phase i:  u_0 = w_{i−1};  u_j = Π_W(u_{j−1} − η_i clip_L(ĝ(u_{j−1}; z_j))),  j = 1..n_i  (z_j ∈ chunk i)
 *             w_i = (1/n_i) Σ_j u_j + N(0, σ_i² I),   σ_i = z·Δ_i,   Δ_i = 2η_i (L + e·n_i)
 *   output w_k
 * </pre>
 *
 * ĝ is the exact gradient for a smooth loss (e = 0), or, for a non-smooth convex GLL, the gradient of
 * the Moreau envelope with smoothness β_W = min((L/D)·min(√n, εn/√(r ln(1/δ))), 8/η) from
 * {@link GllBisectionProx} with per-gradient error at most e = R·L₀/2^K (K from the accuracy α = L₀/n).
 * One-pass SGD with η_i ≤ 2/β is non-expansive, so changing one record moves every iterate and the
 * average by at most 2Lη_i; inexact gradients add 2η_i·e per later step, hence Δ_i (proved in
 * {@code theory-notes/phased-sgd.md §2}). The step-size condition η_1 = η/4 ≤ 2/β (i.e. β ≤ 8/η) is
 * checked and a violating configuration refused. Every per-example step goes through the clip-and-sum
 * kernel ({@link GradientOracle#addClippedBatch}) on a one-example range, clipped at L.
 *
 * <p>Constrained (W with finite diameter D: Bassily–Guzmán–Menart Thm 6) or unconstrained (W = ℝ^d,
 * no projection, D = a declared bound on ‖w*‖ (default √d), r = a declared rank bound defaulting to d: the
 * Theorem 7 variant; privacy is the same argument without projection, {@code theory-notes/phased-sgd.md §4}).
 *
 * <p>Privacy: REPLACE_ONE. Records are permuted once with the run's RNG (blocks of 16 adjacent rows by
 * default, {@link RecordOrder}) and cut into consecutive chunks, so the partition is data-independent and
 * the phases compose in parallel: the statement is {@code Parallel[Gaussian(z) × k]}, each part
 * (ε, δ)-DP. The noise multiplier z is calibrated by the accountant (default: exact Balle–Wang curve via
 * {@link BasicCompositionAccountant}, valid for every ε). The paper noise σ_i = 4Lη_i√(ln(1/δ))/ε (scaled
 * by Δ_i/(2Lη_i)) is available as {@link Noise#PAPER} and refused if the accountant does not certify it.
 * The chunks address records by position, so the planned n must be the number of rows.
 *
 * <p><b>Presets.</b> {@link Preset#PAPER} is the schedule above. {@link Preset#PRACTICAL} (the default)
 * keeps η, the step decay η_i = η/4^i, the sensitivities and the calibration, but runs
 * k = min({@value #PRACTICAL_PHASES}, ⌈log₂ n⌉) phases with n_1 = ⌊n/2⌋ and the last phase taking the
 * remaining records (so every record is used), and each phase releases its <em>last</em> iterate
 * u_{n_i} + N(0, σ_i² I) instead of the average. The sensitivity argument bounds every iterate of the
 * phase by the same Δ_i, so the statement is unchanged; on a few hundred records the later phases of
 * the paper schedule hold a handful of rows each and only add noise, and the last iterate of a pass
 * has moved about twice as far as the average for the same noise.
 *
 * <p>References: Feldman, Koren, Talwar, "Private Stochastic Convex Optimization: Optimal Rates in
 * Linear Time", STOC 2020, arXiv:2005.04763 (Phased-SGD); Bassily, Guzmán, Menart, "Differentially
 * Private Stochastic Optimization: New Results in Convex and Non-Convex Settings", NeurIPS 2021,
 * arXiv:2107.05585 (Algorithm 2, Thms 6–7). Rate: O(LD(1/√n + √(d ln(1/δ))/(εn))) in O(n log n) scalar
 * work for GLLs.
 */
public final class PhasedSgd extends BaseOptimizer<PhasedSgd.Builder> {

    /** The practical preset's number of phases (fewer when ⌈log₂ n⌉ is smaller). */
    public static final int PRACTICAL_PHASES = 2;

    /** Which gradient oracle drives the phases. */
    public enum OracleChoice {
        /** Exact gradients if the loss is smooth enough for the step-size condition, else bisection smoothing. */
        AUTO,
        /** Exact gradients; refused for non-smooth losses or when β &gt; 8/η. */
        EXACT,
        /** Moreau-smoothed GLL through {@link GllBisectionProx}. */
        BISECTION
    }

    /** How σ_i is chosen. */
    public enum Noise {
        /** z calibrated by the accountant to the budget (default). */
        CALIBRATED,
        /** FKT20's constant z = 2√(ln(1/δ))/ε, kept only if the accountant certifies the budget. */
        PAPER
    }

    private PhasedSgd(Builder b) {
        super("phased-sgd", NeighboringRelation.REPLACE_ONE, b);
    }

    /** A builder with the practical preset and the theorem's step. */
    public static Builder builder() {
        return new Builder();
    }

    /** Defaults: practical preset, AUTO oracle, calibrated noise, comparator radius √d when unconstrained. */
    public static PhasedSgd defaults() {
        return builder().build();
    }

    /** k = ⌈log₂ n⌉ for n ≥ 2. */
    static int phaseCount(int n) {
        return 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    /**
     * The phase sizes n_i of a preset for n ≥ 2 records. Paper: k = ⌈log₂ n⌉ phases of max(1, ⌊n/2^i⌋).
     * Practical: k = min(PRACTICAL_PHASES, ⌈log₂ n⌉) phases of ⌊n/2^i⌋, the last one taking the rest, so
     * the sizes sum to n. Public: a function of n alone.
     */
    static int[] phaseSizes(Preset preset, int n) {
        if (n < 2) {
            throw Checks.fail("dataset size n", "at least 2 for phased-sgd", n);
        }
        int paperK = phaseCount(n);
        int k = preset == Preset.PAPER ? paperK : Math.min(PRACTICAL_PHASES, paperK);
        int[] sizes = new int[k];
        int used = 0;
        for (int i = 1; i <= k; i++) {
            sizes[i - 1] = preset == Preset.PRACTICAL && i == k ? n - used : Math.max(1, n >> i);
            used += sizes[i - 1];
        }
        return sizes;
    }

    @Override
    protected RunPlan planFor(ProblemShape shape, PrivacyBudget budget) {
        shape.requireScalarModel(name());
        int n = shape.size();
        if (n < 2) {
            throw Checks.fail("dataset size n", "at least 2 for phased-sgd", n);
        }
        int d = shape.dimension();
        double logInvDelta = Math.log(1 / budget.delta());
        double lip = shape.lipschitz();
        if (!(lip > 0) || Double.isInfinite(lip)) {
            throw Checks.fail("Lipschitz constant L", "finite and positive", lip);
        }
        if (shape.loss().convexity() != Loss.Convexity.CONVEX) {
            throw Checks.fail("convexity of " + shape.loss().name(), "CONVEX for phased-sgd (its sensitivity bound "
                    + "rests on non-expansive gradient steps)", shape.loss().convexity());
        }
        boolean constrained = !shape.domain().isWholeSpace();
        double diam = constrained ? shape.domain().diameter(d)
                : Double.isNaN(config.comparatorRadius) ? Math.sqrt(d) : config.comparatorRadius;
        if (!Double.isFinite(diam)) {
            throw Checks.fail("diameter of the constraint set", "finite (or use the unconstrained set)", diam);
        }
        int r = config.rankBound > 0 ? Math.min(config.rankBound, d) : d;
        double eps = budget.epsilon();
        double eta = Double.isNaN(config.baseStepSize)
                ? (diam / lip) * Math.min(4 / Math.sqrt(n), eps / Math.sqrt(r * logInvDelta)) : config.baseStepSize;
        double smoothingBeta = (lip / diam) * Math.min(Math.sqrt(n), eps * n / Math.sqrt(r * logInvDelta));
        PhasedSchedule.Smoothing sm = smoothing(shape, eta, smoothingBeta);
        int[] sizes = phaseSizes(config.preset(), n);
        int k = sizes.length;
        double[] steps = new double[k];
        double[] sens = new double[k];
        for (int i = 1; i <= k; i++) {
            steps[i - 1] = eta / Math.pow(4, i);
            sens[i - 1] = 2 * steps[i - 1] * (lip + sm.gradientError() * sizes[i - 1]);
        }
        double z = noiseMultiplier(k, budget);
        PhasedSchedule s = new PhasedSchedule(sizes, steps, sens, z, eta, diam, constrained, lip, sm, config.order,
                config.preset() == Preset.PRACTICAL);
        return RunPlan.builder(name(), shape)
                .privacy(PhasedSchedule.statement(k, z), relation(), config.accountant(), budget)
                .parameters(s.parameters(shape, config.noise == Noise.PAPER ? "paper" : "calibrated",
                        config.preset().key(), config.accountant().name()))
                .detail(s)
                .build();
    }

    /** The oracle: exact gradients when the loss meets β ≤ 8/η (or EXACT is asked for), else bisection. */
    private PhasedSchedule.Smoothing smoothing(ProblemShape shape, double eta, double smoothingBeta) {
        Loss loss = shape.loss();
        double betaLimit = 8 / eta;
        double beta = shape.smoothness();
        boolean smoothOk = Double.isFinite(beta) && beta <= betaLimit;
        boolean useBisection = switch (config.oracle) {
            case EXACT -> {
                if (!smoothOk) {
                    throw Checks.fail("smoothness beta of " + loss.name(), "at most 8/eta = " + betaLimit
                            + " (step-size condition eta_1 <= 2/beta) for exact-gradient phased-sgd", beta);
                }
                yield false;
            }
            case BISECTION -> true;
            case AUTO -> !smoothOk;
        };
        if (!useBisection) {
            return new PhasedSchedule.Smoothing(loss, null, beta, 0);
        }
        if (!(loss instanceof GeneralizedLinearLoss gll) || loss instanceof GllBisectionProx) {
            throw Checks.fail("loss " + loss.name(), "a convex generalized linear loss (or smooth with beta <= 8/eta = "
                    + betaLimit + ")", loss.getClass().getSimpleName());
        }
        double rows = shape.rowNormBound();
        double betaW = Math.min(smoothingBeta, betaLimit);
        double l0 = gll.scalarLipschitz();
        double alpha = Double.isNaN(config.bisectionAccuracy) ? l0 / shape.size() : config.bisectionAccuracy;
        GllBisectionProx prox = GllBisectionProx.of(gll, betaW / (rows * rows), alpha);
        double smoothed = prox.smoothness(rows);
        if (!(smoothed <= betaLimit * (1 + 1e-12))) {
            throw new IllegalStateException("smoothed loss has beta " + smoothed + " above 8/eta = " + betaLimit);
        }
        return new PhasedSchedule.Smoothing(prox, prox, smoothed, prox.derivativeErrorBound() * rows);
    }

    /** z: calibrated so that one Gaussian(z) phase meets the budget, or the paper constant if certified. */
    private double noiseMultiplier(int k, PrivacyBudget budget) {
        double eps = budget.epsilon();
        if (config.noise == Noise.CALIBRATED) {
            return Calibration.noiseMultiplier(config.accountant(), zz -> PhasedSchedule.statement(k, zz), eps,
                    budget.delta());
        }
        double z = 2 * Math.sqrt(Math.log(1 / budget.delta())) / eps;
        double spent = config.accountant().epsilon(PhasedSchedule.statement(k, z), budget.delta());
        if (spent > eps * (1 + PrivateRun.BUDGET_TOLERANCE)) {
            throw Checks.fail("epsilon certified for the paper noise 2 sqrt(ln(1/delta))/eps",
                    "at most the budget " + eps + " (use calibrated noise)", spent);
        }
        return z;
    }

    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        PhasedSchedule s = plan.detail(PhasedSchedule.class);
        PrivateRun run = PrivateRun.start(plan, problem, rng, options());
        return run.finish(phases(run, s));
    }

    /** The k phases; returns w_k. */
    private static DMatrixRMaj phases(PrivateRun run, PhasedSchedule s) {
        Problem problem = run.problem();
        Dataset data = problem.data();
        ConvexSet domain = problem.domain();
        int n = run.plan().shape().size();
        int d = data.dimension();
        int[] order = s.order().permutation(n, run.rng());
        GllBisectionProx prox = s.prox();
        GllBisectionProx.Oracle smoothed = prox == null ? null : prox.oracle(data.rowNormBound());
        GradientOracle oracle = smoothed != null ? smoothed : new ExactGradientOracle(problem.loss(),
                Double.POSITIVE_INFINITY);
        double clip = run.mutation() == Mutation.NO_CLIPPING ? Double.POSITIVE_INFINITY : s.lipschitz();
        double[] weights = new double[n];
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        domain.project(w);
        DMatrixRMaj u = new DMatrixRMaj(d, 1);
        DMatrixRMaj avg = new DMatrixRMaj(d, 1);
        DMatrixRMaj scratch = new DMatrixRMaj(d, 1);
        int offset = 0;
        try (PrivateRun.Parallel parts = run.parallel()) {
            for (int ph = 0; ph < s.phases(); ph++) {
                parts.nextPart();
                int end = offset + s.size(ph);
                Arrays.fill(weights, offset, end, -s.step(ph));
                Vectors.copy(w, u);
                Vectors.zero(avg);
                for (int a = offset; a < end; a++) {
                    // u ← u − η_i clip_L(ĝ(u; z_order[a])): the kernel on a one-example range
                    oracle.addClippedBatch(u, data, order, a, a + 1, weights, clip, u, scratch);
                    if (s.constrained()) {
                        domain.project(u);
                    }
                    Vectors.axpy(1.0, u, avg);
                }
                Vectors.scale(1.0 / s.size(ph), avg);
                if (s.lastIterate()) {
                    // practical preset: the phase releases u_{n_i}, bounded by the same Δ_i as the average
                    Vectors.copy(u, avg);
                }
                run.gaussian(avg, s.sensitivity(ph), s.phaseEvent());
                Vectors.copy(avg, w);
                offset = end;
            }
        }
        if (run.diagnosticsOn()) {
            run.diagnose(Diagnostic.TRAIN_LOSS, problem.empiricalRisk(w));
            run.diagnose(Diagnostic.GRADIENT_EVALUATIONS, s.totalSteps());
            if (smoothed != null) {
                run.diagnose(Diagnostic.SCALAR_SUBGRADIENT_CALLS, smoothed.subgradientCalls());
            }
        }
        return w;
    }

    @Override
    public String toString() {
        return "PhasedSgd(oracle=" + config.oracle + ", noise=" + config.noise
                + ", baseStepSize=" + config.baseStepSize + ", comparatorRadius=" + config.comparatorRadius
                + ", rankBound=" + config.rankBound + ", bisectionAccuracy=" + config.bisectionAccuracy
                + ", order=" + config.order + ", preset=" + config.preset().key()
                + ", accountant=" + config.accountant().name() + ")";
    }

    /**
     * Builder; every setter validates. {@code preset}: {@link Preset#PRACTICAL} (default): at most
     * {@value PhasedSgd#PRACTICAL_PHASES} phases covering all records, each releasing its last iterate;
     * {@link Preset#PAPER}: ⌈log₂ n⌉ halving phases, each releasing its average iterate (see the class
     * comment). {@code accountant}: under REPLACE_ONE (default basic composition: exact Gaussian curve per
     * phase).
     */
    public static final class Builder extends PresetBuilder<Builder> {
        private OracleChoice oracle = OracleChoice.AUTO;
        private Noise noise = Noise.CALIBRATED;
        private double baseStepSize = Double.NaN; // NaN: theorem
        private double comparatorRadius = Double.NaN; // NaN: √d
        private int rankBound = 0; // 0: d
        private double bisectionAccuracy = Double.NaN; // NaN: L0/n
        private RecordOrder order = RecordOrder.BLOCK_SHUFFLE;

        private Builder() {
            super(new BasicCompositionAccountant(NeighboringRelation.REPLACE_ONE), NeighboringRelation.REPLACE_ONE,
                    "phased-sgd");
        }

        /** Gradient oracle (default AUTO). */
        public Builder oracle(OracleChoice o) {
            this.oracle = Checks.notNull("oracle", o);
            return this;
        }

        /** Noise rule (default CALIBRATED). */
        public Builder noise(Noise nz) {
            this.noise = Checks.notNull("noise", nz);
            return this;
        }

        /** Overrides the base step η &gt; 0 (public; the step-size condition is still checked). */
        public Builder baseStepSize(double eta) {
            this.baseStepSize = Checks.positive("baseStepSize", eta);
            return this;
        }

        /**
         * D &gt; 0 for the unconstrained variant: a public bound on ‖w*‖ (default √d, the norm of a weight
         * vector with O(1) entries, which gives O(1) margins on rows of norm ≤ 1 — a data-independent
         * scale heuristic).
         */
        public Builder comparatorRadius(double radius) {
            this.comparatorRadius = Checks.positive("comparatorRadius", radius);
            return this;
        }

        /** r in the step size: a public bound on the rank of the feature distribution (default d). */
        public Builder rankBound(int r) {
            this.rankBound = Checks.atLeastOne("rankBound", r);
            return this;
        }

        /** α &gt; 0 of the bisection prox (default L₀/n). */
        public Builder bisectionAccuracy(double alpha) {
            this.bisectionAccuracy = Checks.positive("bisectionAccuracy", alpha);
            return this;
        }

        /** Record order before chunking (default BLOCK_SHUFFLE). */
        public Builder order(RecordOrder o) {
            this.order = Checks.notNull("order", o);
            return this;
        }

        /** Builds the immutable optimizer. */
        public PhasedSgd build() {
            return new PhasedSgd(this);
        }
    }
}
