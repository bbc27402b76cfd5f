package org.dpopt.optim.frankwolfe;

import java.util.function.ToDoubleFunction;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.Polytope;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.BatchSlots;
import org.ejml.data.DMatrixRMaj;

/**
 * The practical schedule of {@link VarianceReducedFrankWolfe}: the Poisson batches, Gaussian noise and
 * PLD accounting of {@link PoissonBatchFrankWolfe}, with a recursive variance-reduced gradient estimator
 * instead of a fresh batch gradient at every step.
 * <pre>
 *   for t = 0..T−1:  S_t ~ Poisson(q = b/n);  a_t, C_t from the public rule {@link Rule};
 *                    U_t = Σ_{i∈S_t} clip_{C_t}(∇f(w_t; z_i) − (1 − a_t)∇f(w_{t−1}; z_i)) + N(0, (zC_t)² I)
 *                    d_t = (1 − a_t)·d_{t−1} + U_t / b;   w_{t+1} = (1 − μ_t) w_t + μ_t·argmin_{v ∈ W} ⟨v, d_t⟩
 * </pre>
 * with μ_t = 2/(t + 2) and a_0 = 1; released: the last iterate. a_t = 1 is a fresh batch gradient (an
 * anchor), a_t = 0 the SARAH/SPIDER difference d_t = d_{t−1} + (1/b)Σ[∇f(w_t) − ∇f(w_{t−1})] on one
 * batch (Nguyen, Liu, Scheinberg, Takáč, "SARAH", ICML 2017, arXiv:1703.00102; Fang, Li, Lin, Zhang,
 * "SPIDER", NeurIPS 2018, arXiv:1807.01695), values in between the momentum form of Cutkosky, Orabona,
 * "Momentum-Based Variance Reduction in Non-Convex SGD" (NeurIPS 2019, arXiv:1905.10018), used for
 * Frank–Wolfe by Zhang, Shen, Mokhtari, Hassani, Karbasi, "One Sample Stochastic Frank-Wolfe" (AISTATS
 * 2020, arXiv:1910.04322).
 *
 * <p>Privacy (add/remove-one; theory-notes/frank-wolfe.md §3a). For a GLL with |φ′| ≤ L₀, |φ″| ≤ β₀ and
 * rows ‖x‖₂ ≤ R, the per-example vector is (φ′(⟨w_t, x⟩) − (1 − a)φ′(⟨w_{t−1}, x⟩))·x = a∇f(w_t) + (1 −
 * a)(∇f(w_t) − ∇f(w_{t−1})), of norm at most aL + (1 − a)Δ_t with L = L₀R and Δ_t = β₀R²·μ_{t−1}·diam₂(W)
 * (since ‖w_t − w_{t−1}‖₂ = μ_{t−1}‖v − w_{t−1}‖₂ ≤ μ_{t−1} diam₂); it is clipped at that C_t anyway, so the
 * ℓ2 sensitivity of U_t is C_t whatever the rows. C_t is a function of public constants and t, and w_t,
 * w_{t−1}, d_{t−1} are functions of the earlier releases, so U_t is the Poisson-subsampled Gaussian
 * mechanism with noise multiplier z given the past — the event of a DP-SGD step (Abadi et al., "Deep
 * Learning with Differential Privacy", CCS 2016) — and the run is T × PoissonSampled(q, Gaussian(z)),
 * the statement of {@link PoissonBatchFrankWolfe}, calibrated by PLD in the same way. The estimator and
 * the steps are post-processing.
 */
final class VarianceReducedBatches {
    /**
     * The floor of the fresh-gradient weight in units of ν = z√d/b: 2, fitted on validation splits of the
     * public datasets (1 lost 0.006 to the plain batch schedule on diabetes, 2 tied it and kept Adult's gain;
     * theory-notes/defaults.md).
     */
    static final double FLOOR_FACTOR = 2;

    private VarianceReducedBatches() {
    }

    /**
     * The public rule of the estimator's weights: a_0 = 1 and, for t ≥ 1, with Δ_t = drift·μ_{t−1},
     * μ_{t−1} = 2/(t + 1), a_t = 1 if Δ_t ≥ L, else the weight that minimizes the bound
     * V_t(a) = (1 − a)²V_{t−1} + (aL + (1 − a)Δ_t)², clamped to [floor, 1]:
     * a_t = (V_{t−1} − Δ_t(L − Δ_t)) / (V_{t−1} + (L − Δ_t)²), with V_0 = L². V_t bounds the estimator's
     * error variance in units of (z/b)²·d + 1/b (noise and sampling both scale with C_t²), so it never
     * exceeds a fresh anchor's L²: the estimator is never worse than the plain batch gradient by this
     * bound, and better once the steps are short (Δ_t ≪ L). The floor keeps fresh gradients in the
     * estimate when a release's noise is large (theory-notes/frank-wolfe.md §3a: where the selections are
     * noise-dominated, a fresh gradient carries the most signal per unit of noise).
     *
     * @param lipschitz L = L₀R, the clip norm of an anchor
     * @param drift β₀R²·diam₂(W), so that Δ_t = drift·μ_{t−1}
     * @param floor the least weight a_t of a fresh gradient, in [0, 1]
     */
    record Rule(double lipschitz, double drift, double floor) {
        Rule {
            Checks.positive("lipschitz", lipschitz);
            Checks.positive("drift (smoothness times diameter)", drift);
            Checks.inRange("floor", floor, 0, 1);
        }

        /**
         * The rule of a plan: the floor is min(1, {@value #FLOOR_FACTOR}·ν) with ν = z√d/b, the expected norm
         * of an anchor's noise (zL√d over the normalizer b) relative to the gradient bound L.
         */
        static Rule of(double lipschitz, double drift, double noiseMultiplier, int dimension, double normalizer) {
            double nu = noiseMultiplier * Math.sqrt(dimension) / normalizer;
            return new Rule(lipschitz, drift, Math.min(1, FLOOR_FACTOR * nu));
        }

        /** Δ_t = drift·2/(t + 1), the bound on a per-example difference at step t ≥ 1. */
        double differenceBound(long t) {
            return drift * 2.0 / (t + 1);
        }

        /** The weights from step 0. */
        Weights start() {
            return new Weights(this);
        }
    }

    /** The weights a_t and clip norms C_t step by step, a deterministic recursion in public quantities. */
    static final class Weights {
        private final Rule rule;
        private long t;
        private double variance;
        private double weight;
        private double clip;

        private Weights(Rule rule) {
            this.rule = rule;
        }

        /** Advances to the next step (the first call gives step 0). */
        void next() {
            double l = rule.lipschitz();
            double dt = t == 0 ? Double.POSITIVE_INFINITY : rule.differenceBound(t);
            if (dt >= l) {
                weight = 1;
                clip = l;
            } else {
                double s = l - dt;
                weight = Math.max(rule.floor(), Math.min(1, (variance - dt * s) / (variance + s * s)));
                clip = weight == 1 ? l : weight * l + (1 - weight) * dt;
            }
            variance = (1 - weight) * (1 - weight) * variance + clip * clip;
            t++;
        }

        /** a_t of the current step. */
        double weight() {
            return weight;
        }

        /** C_t = a_t L + (1 − a_t)Δ_t of the current step, the sensitivity of its release. */
        double clip() {
            return clip;
        }
    }

    /**
     * A planned run.
     *
     * @param batches the Poisson schedule (set, step, start, sampler, event, T, anchor clip L)
     * @param loss the smooth GLL
     * @param rule the estimator's weights
     */
    record Schedule(PoissonBatchFrankWolfe.Schedule batches, GeneralizedLinearLoss loss, Rule rule) {
    }

    /**
     * The plan over a polytope from public constants only: the Poisson schedule of
     * {@link PoissonBatchFrankWolfe#plan} (z calibrated on T × PoissonSampled(q, Gaussian(z))) and the
     * rule's constants.
     *
     * @param radius the ℓ1 radius the rule chose for an unconstrained problem (reported), or NaN
     * @throws IllegalArgumentException for a loss without finite bounds on φ′ and φ″
     */
    static RunPlan plan(String algorithm, NeighboringRelation relation, ProblemShape shape, PrivacyBudget budget,
            PrivacyAccountant accountant, GeneralizedLinearLoss loss, Polytope set, double radius) {
        OnePassSchedule.requireExactSmoothLoss(loss, algorithm);
        int d = shape.dimension();
        double rn = shape.rowNormBound();
        double beta = loss.scalarSmoothness() * rn * rn;
        double diam = set.diameter(d);
        DMatrixRMaj start = new DMatrixRMaj(d, 1);
        set.vertex(0, start);
        return PoissonBatchFrankWolfe.plan(algorithm, relation, shape, budget, accountant, loss, set,
                PoissonBatchFrankWolfe.over(set), start, p -> {
                    p.put(Param.VERTICES, set.vertexCount(d))
                            .put(Param.SMOOTHNESS, beta)
                            .put(Param.DIAMETER, diam)
                            .put(Param.PRESET, Preset.PRACTICAL.key())
                            .putIfFinite(Param.RADIUS, radius);
                }, s -> new Schedule(s, loss, Rule.of(s.clip(), beta * diam, s.noiseMultiplier(), d,
                        s.sampler().normalizer(shape.size()))));
    }

    /** Whether a plan is of this schedule. */
    static boolean isPlanOf(RunPlan plan) {
        return plan.detail(Object.class) instanceof Schedule;
    }

    /**
     * Runs a plan on the run's rows and finishes it: the last iterate, with the non-private diagnostics
     * when they are on.
     *
     * @param gap the Frank–Wolfe gap of the problem over W at an iterate
     */
    static OptimizationResult run(PrivateRun run, RunPlan plan, Dataset population, ToDoubleFunction<DMatrixRMaj> gap) {
        Schedule s = plan.detail(Schedule.class);
        DMatrixRMaj out = new DMatrixRMaj(run.plan().shape().dimension(), 1);
        long evaluations = iterate(run, s, out);
        FrankWolfeSupport.diagnose(run, population, out, evaluations, Diagnostic.FRANK_WOLFE_GAP,
                () -> gap.applyAsDouble(out));
        return run.finish(out);
    }

    /**
     * The T steps; every release goes through the run. Writes the last iterate into out and returns the
     * per-example gradient evaluations (a non-private diagnostic).
     */
    static long iterate(PrivateRun run, Schedule s, DMatrixRMaj out) {
        PoissonBatchFrankWolfe.Schedule p = s.batches();
        Dataset data = run.problem().data();
        int n = run.plan().shape().size();
        int d = run.plan().shape().dimension();
        double normalizer = p.sampler().normalizer(n);
        BatchSlots slots = new BatchSlots(p.sampler().initialBatchSlots(n));
        BatchSampler.BatchIterator it = p.sampler().iterator(n, run.rng());
        DMatrixRMaj w = p.start().copy();
        DMatrixRMaj prev = w.copy();
        DMatrixRMaj est = new DMatrixRMaj(d, 1);
        DMatrixRMaj sum = new DMatrixRMaj(d, 1);
        Weights weights = s.rule().start();
        long evaluations = 0;
        for (long t = 0; t < p.steps(); t++) {
            weights.next();
            double keep = 1 - weights.weight();
            int k = it.next(slots);
            Vectors.zero(sum);
            long rows = addBatch(data, s.loss(), slots.indices(), slots.weights(), k, w, prev, keep, weights.clip(),
                    sum);
            evaluations += keep == 0 ? rows : 2 * rows;
            run.gaussian(sum, weights.clip(), p.stepEvent());
            for (int c = 0; c < d; c++) {
                est.data[c] = keep * est.data[c] + sum.data[c] / normalizer;
                sum.data[c] = est.data[c];
            }
            System.arraycopy(w.data, 0, prev.data, 0, d);
            p.step().step(sum, 2.0 / (t + 2), w);
        }
        System.arraycopy(w.data, 0, out.data, 0, d);
        return evaluations;
    }

    /**
     * out ← out + Σ ω_a·clip_C((φ′(⟨w, x⟩, y) − keep·φ′(⟨prev, x⟩, y))·x) over the contributing slots
     * of [0, k) (weight ω ≠ 0 and a row present); the per-example vector is a coefficient times x, so its
     * norm is |coefficient|·‖x‖₂. Modified: out. Returns the contributing rows.
     *
     * @param keep 1 − a; 0 skips the second derivative (a fresh batch gradient)
     */
    static long addBatch(Dataset data, GeneralizedLinearLoss loss, int[] idx, double[] weights, int k, DMatrixRMaj w,
            DMatrixRMaj prev, double keep, double clip, DMatrixRMaj out) {
        int rows = data.size();
        long used = 0;
        for (int a = 0; a < k; a++) {
            int i = idx[a];
            double omega = weights[a];
            if (omega == 0 || i >= rows) {
                continue;
            }
            double y = data.label(i);
            double c = loss.derivative(data.dot(i, w), y);
            if (keep != 0) {
                c -= keep * loss.derivative(data.dot(i, prev), y);
            }
            double norm = Math.abs(c) * data.rowNorm(i);
            if (norm > clip) {
                c *= clip / norm;
            }
            data.addScaledRow(i, omega * c, out);
            used++;
        }
        return used;
    }
}
