package org.dpopt.optim.frankwolfe;

import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.LpBall;
import org.dpopt.geometry.Polytope;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.oracle.BatchGradientSource;
import org.dpopt.oracle.DatasetBatches;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.Samplers;
import org.ejml.data.DMatrixRMaj;

/**
 * The practical schedule of {@link NoisyStochasticFrankWolfe}: Frank–Wolfe steps on Poisson-sampled
 * mini-batches, each batch's gradient sum released with Gaussian noise as in DP-SGD.
 * <pre>
 *   for t = 0..T−1:  S_t ~ Poisson(q = b/n);  g̃ = Σ_{i∈S_t} clip_L(∇f(w; z_i)) + N(0, (zL)² I)
 *                    v = argmin_{v ∈ W} ⟨v, g̃⟩;   w ← (1 − μ_t) w + μ_t v,   μ_t = 2/(t + 2)
 * </pre>
 * released: the last iterate. L = L₀√(R² + c²) bounds every per-example gradient of the GLL, so the
 * clipping changes nothing on valid rows and makes the ℓ2 sensitivity of a batch sum L under
 * add/remove-one whatever the rows. Each release is the subsampled Gaussian mechanism of DP-SGD; the
 * LMO and the step are post-processing (the LMO is scale-free, so no normalizer is needed). The T steps
 * are the sampler's event, T × PoissonSampled(q, Gaussian(z)), z calibrated by PLD (add/remove) — the
 * accounting of DP-SGD (Abadi et al., "Deep Learning with Differential Privacy", CCS 2016). The steps
 * 2/(t + 2) are those of Frank–Wolfe with stochastic gradients (Hazan, Luo, "Variance-Reduced and
 * Projection-Free Stochastic Optimization", ICML 2016); b = min(256, n/10) and E = 30 epochs are
 * DP-SGD's defaults, the radius rule is {@link #defaultRadius} (theory-notes/frank-wolfe.md §4b,
 * theory-notes/defaults.md).
 */
final class PoissonBatchFrankWolfe {
    /** Epochs E of the schedule: T = ⌈E·n/b⌉ steps. */
    static final double EPOCHS = 30;

    private PoissonBatchFrankWolfe() {
    }

    /**
     * The linear-minimization step over W: w ← (1 − μ)w + μ·argmin_{v ∈ W} ⟨v, g⟩. Modified: w, and g
     * (used as scratch).
     */
    interface Step {
        void step(DMatrixRMaj g, double mu, DMatrixRMaj w);
    }

    /** The step over an ℓp ball: its exact LMO. */
    static Step over(LpBall ball) {
        return (g, mu, w) -> {
            ball.lmo(g, g);
            for (int c = 0; c < w.numRows; c++) {
                w.data[c] = (1 - mu) * w.data[c] + mu * g.data[c];
            }
        };
    }

    /** The step over a polytope: towards its vertex of least score (the exact LMO over the vertices). */
    static Step over(Polytope set) {
        return (g, mu, w) -> set.moveToward(set.lmo(g), mu, w);
    }

    /**
     * A planned run from public constants only.
     *
     * @param set W
     * @param step the linear-minimization step over W
     * @param start w₀ ∈ W, where the first batch gradient is taken (the first step, μ₀ = 1, then moves to a
     *              point of W chosen from it)
     * @param sampler Poisson batches of expected size b
     * @param stepEvent the event of one release, PoissonSampled(q, Gaussian(z))
     * @param steps T
     * @param clip L, the per-example clip norm (the loss's bound) and the sensitivity of a batch sum
     * @param noiseMultiplier z, the calibrated noise multiplier of stepEvent
     */
    record Schedule(ConvexSet set, Step step, DMatrixRMaj start, BatchSampler sampler, DpEvent stepEvent, long steps,
            double clip, double noiseMultiplier) {
    }

    /**
     * The plan of an optimizer's batch schedule over W, from public constants only: the clip norm of the
     * loss, the Poisson sampler of n rows, z calibrated by the accountant (add/remove-one) on the
     * sampler's own event, the schedule's parameters plus {@code extra}.
     *
     * @param start w₀ ∈ W (copied)
     * @param extra adds the optimizer's own parameters (its set's) to the shared ones
     */
    static RunPlan plan(String algorithm, NeighboringRelation relation, ProblemShape shape, PrivacyBudget budget,
            PrivacyAccountant accountant, GeneralizedLinearLoss loss, ConvexSet set, Step step, DMatrixRMaj start,
            Consumer<RunParameters.Builder> extra) {
        return plan(algorithm, relation, shape, budget, accountant, loss, set, step, start, extra, s -> s);
    }

    /**
     * The same plan with another detail built from the schedule (an optimizer whose steps use the
     * schedule's batches, noise and events differently, e.g. {@link VarianceReducedBatches}).
     */
    static RunPlan plan(String algorithm, NeighboringRelation relation, ProblemShape shape, PrivacyBudget budget,
            PrivacyAccountant accountant, GeneralizedLinearLoss loss, ConvexSet set, Step step, DMatrixRMaj start,
            Consumer<RunParameters.Builder> extra, Function<Schedule, Object> detail) {
        double clip = clip(loss, shape, algorithm); // refused before the calibration
        if (accountant.relation() != NeighboringRelation.ADD_OR_REMOVE_ONE) {
            throw Checks.fail("accountant relation", "add/remove-one for Poisson batches", accountant.relation());
        }
        int n = shape.size();
        BatchSampler sampler = Samplers.poisson().create(n, batchSize(n), EPOCHS);
        double z = Calibration.noiseMultiplier(accountant, zz -> sampler.privacyEvent(n, zz), budget.epsilon(),
                budget.delta());
        Schedule s = new Schedule(set, step, start.copy(), sampler, sampler.stepEvent(n, z), sampler.steps(n), clip,
                z);
        RunParameters.Builder p = FrankWolfeSupport.parameters(shape, accountant)
                .put(Param.SAMPLER, sampler.name())
                .put(Param.BATCH_SIZE, (double) batchSize(n))
                .put(Param.EPOCHS, EPOCHS)
                .put(Param.SAMPLING_RATE, sampler.normalizer(n) / n)
                .put(Param.STEPS, s.steps())
                .put(Param.NOISE_MULTIPLIER, z)
                .put(Param.CLIP_NORM, clip)
                .put(Param.SENSITIVITY, clip)
                .put(Param.SIGMA, z * clip)
                .put(Param.OUTPUT, "last");
        extra.accept(p);
        return RunPlan.builder(algorithm, shape)
                .privacy(sampler.privacyEvent(n, z), relation, accountant, budget)
                .parameters(p.build())
                .budgetBinding(true)
                .exactSizeRequired(sampler.requiresExactSize())
                .detail(detail.apply(s))
                .build();
    }

    /** Whether a plan is of this schedule. */
    static boolean isPlanOf(RunPlan plan) {
        return plan.detail(Object.class) instanceof Schedule;
    }

    /**
     * Runs a plan of this schedule on the run's rows and finishes it: the last iterate, with the non-private
     * diagnostics (training loss, population risk, rows read, the Frank–Wolfe gap) when they are on.
     *
     * @param gap the Frank–Wolfe gap of the problem over W at an iterate
     */
    static OptimizationResult run(PrivateRun run, RunPlan plan, Dataset population, ToDoubleFunction<DMatrixRMaj> gap) {
        Iterate it = iterate(run, plan.detail(Schedule.class),
                new DatasetBatches(run.problem().data(), run.problem().loss()));
        DMatrixRMaj out = it.w();
        FrankWolfeSupport.diagnose(run, population, out, it.rows(), Diagnostic.FRANK_WOLFE_GAP,
                () -> gap.applyAsDouble(out));
        return run.finish(out);
    }

    /**
     * The radius of the ℓ2 ball for an unconstrained problem: r = 5√(nε). Each noisy step moves the
     * iterate towards a point of the sphere of radius r, so r sets the scale the last iterate can reach;
     * the rule was fitted on validation splits of the public datasets (r ≈ 90 on a few hundred rows at
     * ε = 1, where 30–100 did best, and ≈ 660 on Adult, where accuracy kept rising up to ≈ 300–1000).
     */
    static double defaultRadius(int n, double epsilon) {
        return 5 * Math.sqrt(n * epsilon);
    }

    /** Expected batch size b = min(256, max(1, n/10)) (DP-SGD's default). */
    private static int batchSize(int n) {
        return Math.max(1, Math.min(256, n / 10));
    }

    /**
     * The clip norm L = L₀·R (R the shape's row-norm bound, intercept column included).
     *
     * @throws IllegalArgumentException if the loss has no finite Lipschitz bound
     */
    private static double clip(GeneralizedLinearLoss loss, ProblemShape shape, String algorithm) {
        double l = loss.scalarLipschitz() * shape.rowNormBound();
        if (!(l > 0 && Double.isFinite(l))) {
            throw Checks.fail("loss", "Lipschitz (a finite bound on |phi'|) for " + algorithm + "'s Poisson batches",
                    loss.name());
        }
        return l;
    }

    /**
     * The output of a run.
     *
     * @param w the last iterate (the release)
     * @param rows the rows the batches held (a non-private diagnostic)
     */
    private record Iterate(DMatrixRMaj w, long rows) {
    }

    /**
     * Runs a plan of this schedule with batch sums from a source whose rows live elsewhere (a distributed
     * engine) and finishes it; the noise, the steps and the ledger are this JVM's. Diagnostics: the rows read.
     */
    static OptimizationResult runDistributed(PrivateRun run, RunPlan plan, BatchGradientSource source) {
        Iterate it = iterate(run, plan.detail(Schedule.class), source);
        if (run.diagnosticsOn()) {
            run.diagnose(Diagnostic.GRADIENT_EVALUATIONS, it.rows());
        }
        return run.finish(it.w());
    }

    /** The steps, with batch sums from a source (in memory or distributed); noise and steps here. */
    private static Iterate iterate(PrivateRun run, Schedule s, BatchGradientSource source) {
        int n = run.plan().shape().size();
        int d = run.plan().shape().dimension();
        DMatrixRMaj w = s.start().copy();
        DMatrixRMaj sum = new DMatrixRMaj(d, 1);
        source.open(s.sampler(), n, run.rng());
        long evals = 0;
        for (long t = 0; t < s.steps(); t++) {
            Vectors.zero(sum);
            evals += source.addBatch(t, w, s.clip(), sum).rows();
            run.gaussian(sum, s.clip(), s.stepEvent());
            s.step().step(sum, 2.0 / (t + 2), w);
        }
        return new Iterate(w, evals);
    }
}
