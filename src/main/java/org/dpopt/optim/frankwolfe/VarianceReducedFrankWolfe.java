package org.dpopt.optim.frankwolfe;

import java.util.function.IntConsumer;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.AdvancedCompositionAccountant;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.geometry.Polytope;
import org.dpopt.geometry.Polytopes;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.noise.ReportNoisyMax;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.PrivateRun;
import org.ejml.data.DMatrixRMaj;

/**
 * Variance-reduced private Frank–Wolfe over a polytope W = conv(V), one pass over the data (Bassily,
 * Guzmán, Menart, "Differentially Private Stochastic Optimization: New Results in Convex and
 * Non-Convex Settings", NeurIPS 2021, arXiv:2107.05585, Algorithm 4 / Theorems 10–11, in our
 * reconstruction, theory-notes/frank-wolfe.md §3; the recursive estimator is of the SPIDER/SARAH type:
 * Fang, Li, Lin, Zhang, "SPIDER", NeurIPS 2018, arXiv:1807.01695; Nguyen, Liu, Scheinberg, Takáč,
 * "SARAH", ICML 2017, arXiv:1703.00102).
 *
 * <p>R rounds of m steps with a constant step μ. Round r: anchor
 * {@code d_0 = (1/b₀) Σ_{A_r} ∇f(w_0; z)}; step t: {@code j_t = argmin_j ⟨v_j, d_t⟩ + Lap(s)}
 * (report-noisy-max), {@code w_{t+1} = w_t + μ(v_{j_t} − w_t)}, then on a fresh batch B_{t+1} of size b:
 * {@code d_{t+1} = d_t + (1/b) Σ_{B_{t+1}} [∇f(w_{t+1}; z) − ∇f(w_t; z)]}. Every batch is a fresh segment
 * of a data-independent read order (shuffled blocks of up to 64 rows, {@link Builder#shuffleBlock}):
 * each record is used in at most one batch. Output: the iterate w_{r,t} at a uniformly random step
 * (index drawn before the run).
 *
 * <p>Assumptions: a smooth GLL (|φ′| ≤ L₀, |φ″| ≤ β₀, possibly non-convex), rows ‖x‖₂ ≤ R; so f is
 * L = L₀R-Lipschitz and β = β₀R²-smooth in ℓ2.
 *
 * <p>Privacy of the one pass (replace-one): a record in A_r moves every score ⟨v, d_t⟩ of round r by at most
 * Δ₀ = 2L·max‖v‖₂/b₀; a record in B_t moves the scores of steps ≥ t by at most
 * 2β‖w_t − w_{t−1}‖₂·max‖v‖₂/b ≤ 2βμ·diam₂(W)·max‖v‖₂/b, and b = ⌈b₀βμ·diam₂/L⌉ makes this ≤ Δ₀.
 * Every selection uses the Laplace scale 2Δ₀/ε0 (ε0-DP with respect to any record of its round); a
 * record influences the m selections of its round only, and iterates are post-processing of the
 * selections, so the run is the parallel composition over rounds of m adaptive ε0-DP steps:
 * Parallel(R × [m × (ε0, 0)]). ε0 is the largest value the accountant (default: advanced composition,
 * {@link AdvancedCompositionAccountant}) certifies for m steps within (ε, δ).
 *
 * <p>One-pass schedule: R = min(n, ⌈(nε)^{1/3}⌉), μ = 1/R, m = ⌈L/(βμ·diam₂)⌉ (the difference batches
 * of a round together are about as large as its anchor) but at most what fits n records with b₀ = 1, b₀
 * the largest size that fits n records. {@link Builder#passes} runs several passes of the schedule
 * (theory-notes/frank-wolfe.md §4a).
 *
 * <p>Presets. {@link org.dpopt.optim.Preset#PAPER}: the one pass above with the uniformly random output
 * iterate, replace-one. {@link org.dpopt.optim.Preset#PRACTICAL} (default) with no rounds, step size,
 * steps per round or passes given: Frank–Wolfe on Poisson batches with a recursive variance-reduced
 * estimator ({@link VarianceReducedBatches}: each step releases one clipped batch sum — a fresh gradient,
 * a SARAH-type difference, or a weighted mix, by a public rule — with Gaussian noise), T ×
 * PoissonSampled(q, Gaussian(z)) by PLD under add/remove-one, the last iterate, and for an unconstrained
 * problem the ℓ1 ball of radius 2√(nε) (theory-notes/frank-wolfe.md §3a). The practical preset with a
 * given schedule setting keeps the one pass and releases its last iterate. The optimizer's
 * {@link #relation()} follows its schedule.
 */
public final class VarianceReducedFrankWolfe extends OnePassOptimizer<VarianceReducedFrankWolfe.Builder> {
    /** The builder's accountant unless one is given: advanced composition under replace-one, for the one pass. */
    private static final PrivacyAccountant ONE_PASS_ACCOUNTANT = new AdvancedCompositionAccountant(
            NeighboringRelation.REPLACE_ONE);

    private VarianceReducedFrankWolfe(Builder b) {
        super("vr-frank-wolfe", NoisyStochasticFrankWolfe.poissonBatches(b.settings())
                ? NeighboringRelation.ADD_OR_REMOVE_ONE : NeighboringRelation.REPLACE_ONE, b);
    }

    /** Whether a plan of this optimizer runs on Poisson batches (its practical default). */
    public static boolean onBatches(RunPlan plan) {
        return VarianceReducedBatches.isPlanOf(plan);
    }

    /** A builder with the documented defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The planned run: everything from public constants.
     *
     * @param set W
     * @param loss the GLL
     * @param schedule rounds, steps, batches and read order
     * @param rnm the selection mechanism (score sensitivity Δ₀, ε0 per selection)
     */
    record Schedule(Polytope set, GeneralizedLinearLoss loss, OnePassSchedule schedule, ReportNoisyMax rnm) {
    }

    @Override
    protected RunPlan planFor(ProblemShape shape, PrivacyBudget budget) {
        GeneralizedLinearLoss loss = FrankWolfeSupport.requireGll(shape.loss(), name());
        if (NoisyStochasticFrankWolfe.poissonBatches(settings)) {
            return batchPlan(shape, budget, loss);
        }
        Polytope set = FrankWolfeSupport.polytope(config.domain(), shape, name());
        int d = shape.dimension();
        // one pass by default: full-batch passes did not help on the validation splits (theory-notes/defaults.md)
        OnePassSchedule s = schedule(shape, loss, budget, set.diameter(d), 1e-300, 0);
        double delta = 2 * s.lipschitz() * set.maxVertexNorm2(d) / s.anchor();
        int m = s.steps();
        double eps0 = 1 / calibrate(zz -> s.perRecord(FrankWolfeSupport.pureSelections(1 / zz, m)), budget);
        ReportNoisyMax rnm = new ReportNoisyMax(delta, eps0, false, relation());
        RunParameters params = parameters(shape, s)
                .put(Param.EPSILON_PER_STEP, eps0)
                .put(Param.SCORE_SENSITIVITY, delta)
                .put(Param.LAPLACE_SCALE, rnm.scale())
                .put(Param.VERTICES, set.vertexCount(d))
                .build();
        return plan(shape, budget, s, FrankWolfeSupport.pureSelections(eps0, m), params, new Schedule(set, loss, s, rnm));
    }

    /**
     * The practical default: Frank–Wolfe on Poisson batches with the variance-reduced estimator
     * ({@link VarianceReducedBatches}), PLD under add/remove-one unless an accountant was given (which must
     * then be for add/remove-one); for an unconstrained problem the ℓ1 ball of noisy-frank-wolfe's radius
     * rule 2√(nε).
     */
    private RunPlan batchPlan(ProblemShape shape, PrivacyBudget budget, GeneralizedLinearLoss loss) {
        boolean ruled = config.domain() == null && shape.domain().isWholeSpace();
        double r = ruled ? NoisyFrankWolfe.defaultRadius(shape.size(), budget.epsilon()) : Double.NaN;
        Polytope set = ruled ? Polytopes.l1Ball(r) : FrankWolfeSupport.polytope(config.domain(), shape, name());
        PrivacyAccountant given = settings.accountant();
        PrivacyAccountant acc = given == ONE_PASS_ACCOUNTANT ? new PldAccountant() : given;
        return VarianceReducedBatches.plan(name(), relation(), shape, budget, acc, loss, set, r);
    }

    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        if (onBatches(plan)) {
            Polytope set = (Polytope) plan.detail(VarianceReducedBatches.Schedule.class).batches().set();
            return VarianceReducedBatches.run(PrivateRun.start(plan, problem, rng, options()), plan,
                    settings.population(), w -> FrankWolfeSupport.frankWolfeGap(problem, set, w));
        }
        Schedule s = plan.detail(Schedule.class);
        PrivateRun run = PrivateRun.start(plan, problem, rng, options());
        DMatrixRMaj out = iterate(run, s, (scores, count) -> run.reportNoisyMax(s.rnm(), scores, count, -1.0), null);
        return finish(run, s.schedule(), out, () -> FrankWolfeSupport.frankWolfeGap(problem, s.set(), out));
    }

    /** Chooses the vertex of a step from its exact scores: report-noisy-max through the run in production. */
    interface Selector {
        int select(double[] scores, int count);
    }

    /**
     * The rounds of a run (the output iterate). Production passes the report-noisy-max selector; tests
     * may force the selections to compare exact scores on neighbouring datasets.
     *
     * @param visitor told every record index as it is read, or null
     */
    static DMatrixRMaj iterate(PrivateRun run, Schedule s, Selector selector, IntConsumer visitor) {
        return new Rounds(run, s, selector, visitor).iterate(run);
    }

    /** The variance-reduced step over a polytope. */
    private static final class Rounds extends OnePassRounds {
        private final Polytope set;
        private final Selector selector;
        private final double[] scores;
        private final ChosenVertex vertex;
        private final int count;

        Rounds(PrivateRun run, Schedule s, Selector selector, IntConsumer visitor) {
            super(run, s.loss(), s.schedule(), visitor);
            this.set = s.set();
            this.selector = selector;
            int d = data.dimension();
            this.count = set.vertexCount(d);
            this.scores = new double[count];
            this.vertex = new ChosenVertex(d);
            set.vertex(0, w);
        }

        @Override
        void step(double mu, boolean more) {
            set.scores(est, scores);
            int j = selector.select(scores, count);
            if (more) {
                vertex.load(set, j);
                double inv = 1.0 / schedule.batch();
                for (int a = 0; a < schedule.batch(); a++) {
                    int i = nextRecord();
                    double uOld = data.dot(i, w);
                    double uNew = (1 - mu) * uOld + mu * vertex.dotRow(data, i);
                    double y = data.label(i);
                    data.addScaledRow(i, (loss.derivative(uNew, y) - loss.derivative(uOld, y)) * inv, est);
                }
            }
            set.moveToward(j, mu, w);
        }
    }

    /** Builder; every setter validates (the schedule setters are shared with noisy SFW). */
    public static final class Builder extends OnePassBuilder<Builder, Polytope> {
        private Builder() {
            super(ONE_PASS_ACCOUNTANT, "vr-frank-wolfe");
        }

        /** Builds the immutable optimizer. */
        public VarianceReducedFrankWolfe build() {
            return new VarianceReducedFrankWolfe(this);
        }
    }
}
