package org.dpopt.optim.frankwolfe;

import java.util.function.IntConsumer;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.geometry.LpBall;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.PrivateRun;
import org.ejml.data.DMatrixRMaj;

/**
 * Noisy stochastic Frank–Wolfe over an ℓp ball, 1 &lt; p ≤ 2 (Bassily, Guzmán, Menart, "Differentially
 * Private Stochastic Optimization: New Results in Convex and Non-Convex Settings", NeurIPS 2021,
 * arXiv:2107.05585, Algorithm 5 / Theorems 13–14, in our reconstruction, theory-notes/frank-wolfe.md §4).
 *
 * <p>The round structure and recursive estimator of {@link VarianceReducedFrankWolfe} (one pass, fresh
 * disjoint batches, anchor b₀ and difference batches b), but the estimator itself is released with
 * Gaussian noise, {@code d̃_t = d_t + N(0, σ²I)}, and the exact LMO of the ball gives
 * {@code v_t = −r·sign(d̃)|d̃|^{q−1}/‖d̃‖_q^{q−1}}; {@code w_{t+1} = w_t + μ(v_t − w_t)}. Output: the
 * iterate at a uniformly random step (index drawn before the run). For p close to 1 use
 * {@link LpBall#effective} (the ℓ_p̃ ball, p̃ = 1 + 1/ln d).
 *
 * <p>Assumptions: a smooth GLL (|φ′| ≤ L₀, |φ″| ≤ β₀; non-convex allowed), rows ‖x‖₂ ≤ R, so f is
 * L = L₀R-Lipschitz and β = β₀R²-smooth in ℓ2; since p ≤ 2 the ℓ2 diameter of the ball is 2r.
 *
 * <p>Privacy (replace-one): a record in the anchor moves every d_t of its round by at most Δ = 2L/b₀
 * in ℓ2, a record in a difference batch by at most 2βμ·2r/b ≤ Δ (b = ⌈b₀βμ·2r/L⌉). Each release d̃_t is
 * the Gaussian mechanism with noise multiplier z = σ/Δ given the past releases, a record influences
 * only the m releases of its round, and iterates are post-processing: the run is
 * Parallel(R × [m × Gaussian(z)]), z calibrated by the accountant (default RDP, replace-one).
 *
 * <p>Domain: the configured ball, else the problem's domain if it is an ℓp ball, else — for an
 * unconstrained problem — the ℓ2 ball of radius {@code √(nε)/6} (a public rule,
 * {@link #defaultRadius}; the solution then lies in that ball, a subset of the problem's domain).
 *
 * <p>Presets. {@link org.dpopt.optim.Preset#PAPER}: the one pass above with the uniformly random
 * output iterate, replace-one. {@link org.dpopt.optim.Preset#PRACTICAL} (default) with an automatic
 * schedule (no rounds, step size, steps per round or passes given): Frank–Wolfe steps on Poisson
 * batches, each batch's clipped gradient sum released with Gaussian noise, T × PoissonSampled(q,
 * Gaussian(z)) by PLD under add/remove-one, the last iterate, and for an unconstrained problem the ℓ2
 * ball of radius 5√(nε) ({@link PoissonBatchFrankWolfe}; theory-notes/frank-wolfe.md §4b). With
 * {@link Builder#passes} and no other schedule setting: K passes of the one-pass mechanism with one
 * round of one step whose anchor is all n records — each pass releases the full-batch gradient with
 * Gaussian noise (Δ = 2L/n) and steps with μ_k = 2/(k + 2); the passes compose, K × Gaussian(z), and the
 * last iterate is released (§4a). A given rounds / step size / steps-per-round keeps one pass unless
 * {@link Builder#passes} is given. The optimizer's {@link #relation()} follows its schedule.
 */
public final class NoisyStochasticFrankWolfe extends OnePassOptimizer<NoisyStochasticFrankWolfe.Builder> {
    /**
     * K = 100 full-batch passes, the practical default of the previous round (fitted on validation splits
     * of the public datasets, theory-notes/defaults.md); reached now with {@code passes(100)}, since an
     * automatic practical schedule samples Poisson batches.
     */
    static final int PRACTICAL_PASSES = 100;

    /** The builder's accountant unless one is given: RDP under replace-one, for the one-pass schedules. */
    private static final PrivacyAccountant ONE_PASS_ACCOUNTANT = new RdpAccountant(RdpAccountant.DEFAULT_ORDERS,
            RdpAccountant.Conversion.IMPROVED, NeighboringRelation.REPLACE_ONE);

    private NoisyStochasticFrankWolfe(Builder b) {
        super("noisy-sfw", poissonBatches(b.settings()) ? NeighboringRelation.ADD_OR_REMOVE_ONE
                : NeighboringRelation.REPLACE_ONE, b);
    }

    /**
     * Whether the settings select the practical schedule on Poisson batches: the practical preset with
     * rounds, step size, steps per round and passes all automatic.
     */
    static boolean poissonBatches(OnePassSettings s) {
        return s.preset() == Preset.PRACTICAL && s.rounds() == 0 && Double.isNaN(s.stepSize())
                && s.stepsPerRound() == 0 && s.passes() == 0;
    }

    /**
     * The radius of the ℓ2 ball used when the problem is unconstrained and no ball is configured:
     * r = √(nε)/6, from the public n and ε only. The Gaussian noise of a full-batch release has scale
     * ∝ 1/(nε) per unit of sensitivity, so the ball a noisy run can fill grows with nε; the square root
     * and the constant were fitted on validation splits of the public datasets (theory-notes/defaults.md:
     * r ≈ 2–4 on the sets of a few hundred rows at ε = 1, where r = 3 was best, and 23 on Adult, where the
     * accuracy rose from the majority rate at r = 3 to 0.826).
     */
    static double defaultRadius(int n, double epsilon) {
        return Math.sqrt(n * epsilon) / 6;
    }

    /** A builder with the documented defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The planned run: everything from public constants.
     *
     * @param ball W
     * @param loss the GLL
     * @param schedule rounds, steps, batches and read order
     * @param sensitivity Δ = 2L/b₀, the ℓ2 sensitivity of every release
     * @param release the event of one release, Gaussian(z)
     */
    record Schedule(LpBall ball, GeneralizedLinearLoss loss, OnePassSchedule schedule, double sensitivity,
            GaussianEvent release) {
    }

    @Override
    protected RunPlan planFor(ProblemShape shape, PrivacyBudget budget) {
        GeneralizedLinearLoss loss = FrankWolfeSupport.requireGll(shape.loss(), name());
        boolean batches = poissonBatches(settings);
        double unconstrained = batches ? PoissonBatchFrankWolfe.defaultRadius(shape.size(), budget.epsilon())
                : defaultRadius(shape.size(), budget.epsilon());
        LpBall ball = config.domain() == null && shape.domain().isWholeSpace()
                ? new LpBall(2, unconstrained)
                : FrankWolfeSupport.lpBall(config.domain(), shape, name());
        if (batches) {
            return batchPlan(shape, budget, loss, ball);
        }
        int d = shape.dimension();
        // the ball's diameter 2r is positive, so no floor is needed in the default m
        OnePassSchedule s = schedule(shape, loss, budget, ball.diameter(d), 0.0, PRACTICAL_PASSES);
        double delta = 2 * s.lipschitz() / s.anchor();
        int m = s.steps();
        double z = calibrate(zz -> s.perRecord(roundEvent(zz, m)), budget);
        RunParameters params = parameters(shape, s)
                .put(Param.NOISE_MULTIPLIER, z)
                .put(Param.SIGMA, z * delta)
                .put(Param.SENSITIVITY, delta)
                .put(Param.LP_NORM, ball.p(d))
                .put(Param.RADIUS, ball.r())
                .build();
        return plan(shape, budget, s, roundEvent(z, m), params, new Schedule(ball, loss, s, delta, new GaussianEvent(z)));
    }

    /** The practical schedule: Frank–Wolfe steps on Poisson batches ({@link PoissonBatchFrankWolfe}). */
    private RunPlan batchPlan(ProblemShape shape, PrivacyBudget budget, GeneralizedLinearLoss loss, LpBall ball) {
        OnePassSchedule.requireExactSmoothLoss(loss, name());
        return PoissonBatchFrankWolfe.plan(name(), relation(), shape, budget, batchAccountant(), loss, ball,
                PoissonBatchFrankWolfe.over(ball), new DMatrixRMaj(shape.dimension(), 1), p -> p.put(Param.LP_NORM, ball.p(shape.dimension()))
                        .put(Param.RADIUS, ball.r()));
    }

    /**
     * The accountant of the Poisson-batch schedule: PLD under add/remove-one unless one was given (which
     * must then be for add/remove-one).
     */
    private PrivacyAccountant batchAccountant() {
        PrivacyAccountant given = settings.accountant();
        return given == ONE_PASS_ACCOUNTANT ? new PldAccountant() : given;
    }

    private static DpEvent roundEvent(double z, int m) {
        return DpEvents.normalize(new SelfComposedEvent(new GaussianEvent(z), m));
    }

    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        if (PoissonBatchFrankWolfe.isPlanOf(plan)) {
            LpBall ball = (LpBall) plan.detail(PoissonBatchFrankWolfe.Schedule.class).set();
            return PoissonBatchFrankWolfe.run(PrivateRun.start(plan, problem, rng, options()), plan,
                    settings.population(), w -> FrankWolfeSupport.frankWolfeGap(problem, ball, w));
        }
        Schedule s = plan.detail(Schedule.class);
        PrivateRun run = PrivateRun.start(plan, problem, rng, options());
        LpBall ball = s.ball();
        DMatrixRMaj out = iterate(run, s, (estimate, v) -> {
            System.arraycopy(estimate.data, 0, v.data, 0, v.numRows);
            run.gaussian(v, s.sensitivity(), s.release());
            ball.lmo(v, v);
        }, null);
        return finish(run, s.schedule(), out, () -> FrankWolfeSupport.frankWolfeGap(problem, ball, out));
    }

    /**
     * Turns the exact estimate d_t into the point v_t of a step: in production the Gaussian release
     * through the run followed by the LMO of the ball.
     */
    interface Release {
        void release(DMatrixRMaj estimate, DMatrixRMaj v);
    }

    /**
     * The rounds of a run (the output iterate). Production passes the noisy release; tests may force
     * the points to compare exact estimates on neighbouring datasets.
     *
     * @param visitor told every record index as it is read, or null
     */
    static DMatrixRMaj iterate(PrivateRun run, Schedule s, Release release, IntConsumer visitor) {
        return new Rounds(run, s, release, visitor).iterate(run);
    }

    /** The noisy-estimator step over an ℓp ball. */
    private static final class Rounds extends OnePassRounds {
        private final Release release;
        private final DMatrixRMaj v;
        private DMatrixRMaj next;

        Rounds(PrivateRun run, Schedule s, Release release, IntConsumer visitor) {
            super(run, s.loss(), s.schedule(), visitor);
            this.release = release;
            this.v = new DMatrixRMaj(data.dimension(), 1);
            this.next = new DMatrixRMaj(data.dimension(), 1);
        }

        @Override
        void step(double mu, boolean more) {
            int d = data.dimension();
            release.release(est, v);
            for (int c = 0; c < d; c++) {
                next.data[c] = (1 - mu) * w.data[c] + mu * v.data[c];
            }
            if (more) {
                double inv = 1.0 / schedule.batch();
                for (int a = 0; a < schedule.batch(); a++) {
                    int i = nextRecord();
                    double y = data.label(i);
                    double diff = loss.derivative(data.dot(i, next), y) - loss.derivative(data.dot(i, w), y);
                    data.addScaledRow(i, diff * inv, est);
                }
            }
            DMatrixRMaj tmp = w;
            w = next;
            next = tmp;
        }
    }

    /** Builder; every setter validates (the schedule setters are shared with VR Frank–Wolfe). */
    public static final class Builder extends OnePassBuilder<Builder, LpBall> {
        private Builder() {
            super(ONE_PASS_ACCOUNTANT, "noisy-sfw");
        }

        /** Builds the immutable optimizer. */
        public NoisyStochasticFrankWolfe build() {
            return new NoisyStochasticFrankWolfe(this);
        }
    }
}
