package org.dpopt.optim.frankwolfe;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.AdvancedCompositionAccountant;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.oracle.BatchGradientSource;
import org.dpopt.optim.Preset;
import org.dpopt.geometry.Polytopes;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.Polytope;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.noise.ReportNoisyMax;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.optim.core.BaseOptimizer;
import org.dpopt.oracle.DataPasses;
import org.dpopt.oracle.DatasetPasses;
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
 * parameter β ∝ √(nε) (theory-notes/frank-wolfe.md §2), whose derivative {@link GllBisectionProx}
 * computes by bisection to accuracy L₀/n (Algorithm 1 of the paper); the derivative stays in [−L₀, L₀],
 * so the sensitivity below is unchanged.
 *
 * <p>Privacy (replace-one): each score ⟨v, g_t⟩ changes by at most
 * {@code Δ = 2 L₀ · min(R max_v‖v‖₂, B∞ max_v‖v‖₁) / n} between neighbours (B∞ an optional declared bound
 * on ‖x‖_∞, {@link Builder#supNormBound}; a full-batch mean, so scores may move in either direction),
 * so report-noisy-max with b = 2Δ/ε0 is ε0-DP; the T adaptive steps are composed by the accountant
 * (default {@link AdvancedCompositionAccountant}: Dwork–Rothblum–Vadhan and the exact
 * Kairouz–Oh–Viswanath bound), ε0 being the largest per-step budget it certifies within (ε, δ).
 * Statement: T × EpsilonDeltaEvent(ε0, 0). The step count T is a function of public constants
 * (Γnε balanced against the selection error, theory-notes/frank-wolfe.md §2), clamped to [1, maxIterations].
 */
public final class NoisyFrankWolfe extends BaseOptimizer<NoisyFrankWolfe.Builder> {
    private NoisyFrankWolfe(Builder b) {
        super("noisy-frank-wolfe", onBatches(b) ? NeighboringRelation.ADD_OR_REMOVE_ONE
                : NeighboringRelation.REPLACE_ONE, b);
    }

    /** The practical preset with T not fixed: the noisy selections run on Poisson batches. */
    private static boolean onBatches(Builder b) {
        return b.preset() == Preset.PRACTICAL && b.iterations == 0;
    }

    /** Whether a plan of this optimizer runs on Poisson batches (its practical default). */
    public static boolean onBatches(RunPlan plan) {
        return PoissonBatchFrankWolfe.isPlanOf(plan);
    }

    /**
     * The radius of the ℓ1 ball the practical default uses for an unconstrained problem: r = 2√(nε),
     * from the public n and ε (fitted on validation splits of the public datasets, theory-notes/defaults.md).
     */
    static double defaultRadius(int n, double epsilon) {
        return 2 * Math.sqrt(n * epsilon);
    }

    /** A builder with the documented defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The planned run: everything from public constants.
     *
     * @param set W
     * @param loss the GLL the gradients use (the Moreau envelope of a non-smooth loss)
     * @param steps T
     * @param rnm the selection mechanism (score sensitivity Δ, ε0 per step)
     * @param supBound the declared ℓ∞ row bound B∞ (+∞ if none), checked when a run starts
     * @param smoothing the Moreau parameter β, or NaN for a smooth loss
     */
    record Schedule(Polytope set, GeneralizedLinearLoss loss, long steps, ReportNoisyMax rnm, double supBound,
            double smoothing) {
    }

    @Override
    protected RunPlan planFor(ProblemShape shape, PrivacyBudget budget) {
        GeneralizedLinearLoss loss = FrankWolfeSupport.requireGll(shape.loss(), name());
        if (onBatches(config)) {
            return batchPlan(shape, budget, loss);
        }
        Polytope set = FrankWolfeSupport.polytope(config.domain(), shape, name());
        NoisyFrankWolfeRules rules = new NoisyFrankWolfeRules(shape, set, config.supBound);
        double beta = Double.NaN;
        if (!Double.isFinite(loss.scalarSmoothness())) {
            beta = rules.smoothing(loss, budget);
            loss = GllBisectionProx.of(loss, beta, loss.scalarLipschitz() / shape.size());
        }
        FrankWolfeSupport.requireReplaceOne(rnmAccountant());
        long t = config.iterations > 0 ? config.iterations
                : (long) Math.max(1, Math.min(config.maxIterations, Math.ceil(rules.theoremSteps(loss, budget))));
        double delta = rules.sensitivity(loss);
        double z = Calibration.noiseMultiplier(rnmAccountant(), zz -> FrankWolfeSupport.pureSelections(1 / zz, t),
                budget.epsilon(),
                budget.delta(), 1e-6);
        double eps0 = 1 / z;
        ReportNoisyMax rnm = new ReportNoisyMax(delta, eps0, false, relation());
        RunParameters.Builder p = FrankWolfeSupport.parameters(shape, rnmAccountant())
                .put(Param.STEPS, t)
                .put(Param.EPSILON_PER_STEP, eps0)
                .put(Param.SCORE_SENSITIVITY, delta)
                .put(Param.LAPLACE_SCALE, rnm.scale())
                .put(Param.VERTICES, set.vertexCount(shape.dimension()))
                .putIfFinite(Param.SUP_NORM_BOUND, config.supBound)
                .putIfFinite(Param.SMOOTHNESS, beta)
                .put(Param.OUTPUT, "last");
        return RunPlan.builder(name(), shape)
                .privacy(FrankWolfeSupport.pureSelections(eps0, t), relation(), rnmAccountant(), budget)
                .parameters(p.build())
                .exactSizeRequired(true)
                .detail(new Schedule(set, loss, t, rnm, config.supBound, beta))
                .build();
    }

    /**
     * The practical default: the selection of every step is the LMO of a Poisson batch's noisy gradient
     * sum ({@link PoissonBatchFrankWolfe}) — report-noisy-max with Gaussian noise on the scores through
     * the gradient, accounted as DP-SGD under add/remove-one. For an unconstrained problem the ℓ1 ball
     * of radius {@link #defaultRadius}.
     */
    private RunPlan batchPlan(ProblemShape shape, PrivacyBudget budget, GeneralizedLinearLoss loss) {
        if (Double.isFinite(config.supBound)) {
            throw Checks.fail("supNormBound", "used only by the report-noisy-max schedule (give preset(PAPER) or "
                    + "iterations(T)); absent for the Poisson batches", config.supBound);
        }
        boolean ruled = config.domain() == null && shape.domain().isWholeSpace();
        double r = defaultRadius(shape.size(), budget.epsilon());
        Polytope set = ruled ? Polytopes.l1Ball(r) : FrankWolfeSupport.polytope(config.domain(), shape, name());
        PrivacyAccountant acc = config.accountant() != null ? config.accountant() : new PldAccountant();
        DMatrixRMaj start = new DMatrixRMaj(shape.dimension(), 1);
        set.vertex(0, start);
        return PoissonBatchFrankWolfe.plan(name(), relation(), shape, budget, acc, loss, set,
                PoissonBatchFrankWolfe.over(set), start, p -> {
                    p.put(Param.VERTICES, set.vertexCount(shape.dimension()));
                    if (ruled) {
                        p.put(Param.RADIUS, r);
                    }
                });
    }

    /** The accountant of the report-noisy-max schedule: the given one, else advanced composition (replace-one). */
    private PrivacyAccountant rnmAccountant() {
        return config.accountant() != null ? config.accountant()
                : new AdvancedCompositionAccountant(NeighboringRelation.REPLACE_ONE);
    }

    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        if (onBatches(plan)) {
            Polytope set = (Polytope) plan.detail(PoissonBatchFrankWolfe.Schedule.class).set();
            return PoissonBatchFrankWolfe.run(PrivateRun.start(plan, problem, rng, options()), plan, config.population(),
                    w -> FrankWolfeSupport.frankWolfeGap(problem, set, w));
        }
        Schedule s = plan.detail(Schedule.class);
        PrivateRun run = PrivateRun.start(plan, problem, rng, options());
        if (Double.isFinite(s.supBound())) {
            // a public promise about the data, refused as Dataset refuses rows above the declared l2 bound
            new DatasetPasses(problem.data()).requireSupNorm(s.supBound());
        }
        DMatrixRMaj w = iterate(run, s);
        // the gap of the objective the run minimizes: the smoothed one for a non-smooth loss
        boolean smoothed = !Double.isNaN(s.smoothing());
        Problem objective = smoothed ? Problem.of(problem.data(), s.loss(), s.set()) : problem;
        FrankWolfeSupport.diagnose(run, config.population(), w, s.steps() * problem.size(),
                smoothed ? Diagnostic.FRANK_WOLFE_GAP_SMOOTHED : Diagnostic.FRANK_WOLFE_GAP,
                () -> FrankWolfeSupport.frankWolfeGap(objective, s.set(), w));
        return run.finish(w);
    }

    /** The T steps from w_0 = v_0; every selection is report-noisy-min through the run. */
    private static DMatrixRMaj iterate(PrivateRun run, Schedule s) {
        Dataset data = run.problem().data();
        GeneralizedLinearLoss loss = s.loss();
        Polytope set = s.set();
        int n = data.size();
        int d = data.dimension();
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        set.vertex(0, w);
        ChosenVertex vertex = new ChosenVertex(d);
        vertex.load(set, 0);
        double[] margins = new double[n];
        for (int i = 0; i < n; i++) {
            margins[i] = vertex.dotRow(data, i);
        }
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        double[] scores = new double[set.vertexCount(d)];
        for (long t = 0; t < s.steps(); t++) {
            java.util.Arrays.fill(g.data, 0.0);
            for (int i = 0; i < n; i++) {
                data.addScaledRow(i, loss.derivative(margins[i], data.label(i)) / n, g);
            }
            int j = step(run, s, g, scores, t, w);
            double mu = 2.0 / (t + 2);
            vertex.load(set, j);
            for (int i = 0; i < n; i++) {
                margins[i] = (1 - mu) * margins[i] + mu * vertex.dotRow(data, i);
            }
        }
        return w;
    }

    /**
     * One step from the full gradient g: the noisy selection through the run, then
     * w ← (1 − μ_t) w + μ_t v_j with μ_t = 2/(t+2). Modified: w, scores. Returns j.
     */
    private static int step(PrivateRun run, Schedule s, DMatrixRMaj g, double[] scores, long t, DMatrixRMaj w) {
        Polytope set = s.set();
        set.scores(g, scores);
        int j = run.reportNoisyMax(s.rnm(), scores, set.vertexCount(w.numRows), -1.0);
        set.moveToward(j, 2.0 / (t + 2), w);
        return j;
    }

    /**
     * Runs a plan on rows that live elsewhere: the full gradient of every step is
     * {@link DataPasses#meanGradient} (a distributed pass over the n rows, which must be the plan's n);
     * the selection, the update and the ledger are this JVM's. The same events and report as
     * {@link #run(Problem, RunPlan, UniformRandomProvider)}; with the same generator the same vertices are
     * chosen unless two noisy scores tie to rounding. Diagnostics: the gradient evaluations only.
     *
     * @param passes the rows (their number must equal the planned n)
     * @param shape the public shape of the distributed data (must be the plan's)
     */
    public OptimizationResult run(DataPasses passes, ProblemShape shape, RunPlan plan, UniformRandomProvider rng) {
        Checks.notNull("passes", passes);
        Schedule s = plan.detail(Schedule.class);
        PrivateRun run = PrivateRun.startDistributed(plan, shape, passes.size(), rng, options());
        if (Double.isFinite(s.supBound())) {
            passes.requireSupNorm(s.supBound());
        }
        int d = shape.dimension();
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        s.set().vertex(0, w);
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        double[] scores = new double[s.set().vertexCount(d)];
        for (long t = 0; t < s.steps(); t++) {
            passes.meanGradient(s.loss(), w, g);
            step(run, s, g, scores, t, w);
        }
        if (run.diagnosticsOn()) {
            run.diagnose(Diagnostic.GRADIENT_EVALUATIONS, s.steps() * passes.size());
        }
        return run.finish(w);
    }

    /**
     * Runs a plan of the practical default ({@link #onBatches(RunPlan)}) with batch sums from a source
     * whose rows live elsewhere (a distributed engine): the same noise, steps, ledger and report as in
     * memory; with a keyed sampler the same batches.
     *
     * @param shape the public shape of the distributed data (must be the plan's)
     * @param rows the actual number of rows (checked against the plan, never released)
     */
    public OptimizationResult run(BatchGradientSource source, ProblemShape shape, long rows, RunPlan plan,
            UniformRandomProvider rng) {
        Checks.notNull("source", source);
        plan.detail(PoissonBatchFrankWolfe.Schedule.class); // refuses a plan of the other schedule first
        return PoissonBatchFrankWolfe.runDistributed(PrivateRun.startDistributed(plan, shape, rows, rng, options()),
                plan, source);
    }

    /** The loss a plan's gradients use (the Moreau envelope of a non-smooth loss), for distributed passes. */
    public static GeneralizedLinearLoss gradientLoss(RunPlan plan) {
        return plan.detail(Schedule.class).loss();
    }

    /**
     * Builder; every setter validates. {@code preset}: PRACTICAL (default): Frank–Wolfe steps on Poisson
     * batches, unless {@link #iterations} fixes T; PAPER: the full-batch schedule with report-noisy-max of
     * Algorithm 3. {@code accountant}: default advanced composition with the optimal bound, replace-one,
     * for the report-noisy-max schedule; PLD, add/remove-one, for the practical default on Poisson
     * batches.
     */
    public static final class Builder extends FrankWolfeBuilder<Builder, Polytope> {
        private long iterations;
        private long maxIterations = 10_000;
        private double supBound = Double.POSITIVE_INFINITY;

        private Builder() {
            super(null, "noisy-frank-wolfe"); // accountant null: advanced composition (replace-one), PLD on batches
        }

        /** Fixes T ≥ 1 instead of the theorem's value. */
        public Builder iterations(long t) {
            this.iterations = Checks.atLeastOne("iterations", t);
            return this;
        }

        /**
         * Upper clamp on the theorem's T (default 10000; the cost is n·T) for the report-noisy-max
         * schedule; the practical default's T is its epochs' ⌈30n/b⌉.
         */
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
