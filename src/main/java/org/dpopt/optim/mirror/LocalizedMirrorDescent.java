package org.dpopt.optim.mirror;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.MirrorMap;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.Loss;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.core.Mutation;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.oracle.BatchBuffers;
import org.dpopt.oracle.GradientOracle;
import org.dpopt.oracle.SmoothedLoss;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.PoissonSampler;
import org.ejml.data.DMatrixRMaj;

/**
 * 𝒜_sc: a private solver for the strongly convex ℓp objective
 *
 * <pre>
 *   φ(w) = (1/|S|) Σ_{i∈S} f(w; z_i) + μ·ψ(w − c)      (ψ the ℓp̃ {@link MirrorMap}),
 * </pre>
 *
 * assumed λ-strongly convex w.r.t. ‖·‖_p̃ (λ = μ − ρ for a ρ-weakly convex f), by noisy stochastic
 * mirror descent with localization (epoch halving of the radius). It follows the iterative
 * localization of Asi, Feldman, Koren, Talwar ("Private Stochastic Convex Optimization: Optimal Rates
 * in ℓ1 Geometry", ICML 2021, arXiv:2103.01516) combined with the strongly convex epoch reduction of
 * Hazan and Kale, "Beyond the regret minimization barrier: optimal algorithms for stochastic
 * strongly-convex optimization", JMLR 2014, as used by Bassily, Guzmán, Menart (arXiv:2107.05585,
 * Algorithm 6); derivations in {@code theory-notes/mirror-descent.md §4}.
 *
 * <p><b>Phases.</b> The data come as K disjoint parts, one per phase. Phase j starts at the anchor a_j
 * (a_1 = c) with radius R_j (R_1 = R₀, public), and runs T steps of
 *
 * <pre>
 *   B ~ Poisson(q) on part j;   g = (Σ_{i∈B} clip_C(∇f_i(w)) + N(0, (zC)² I)) / b + μ∇ψ(w − c)
 *   w ← a_j + ∇ψ*(∇ψ(w − a_j) − η_j g),   then the Bregman projection onto {‖w − a_j‖_p̃ ≤ R_j} (radial)
 * </pre>
 *
 * with η_j = R_j√κ/(M_j√T), M_j² = (√2 C + G_j)² + V(zC/b)² (G_j bounds the regularizer's dual-norm
 * gradient on the ball, V = {@link MirrorMap#gaussianDualNormSquaredBound()}). The phase output is the
 * average iterate a_{j+1}; by the mirror descent bound φ(a_{j+1}) − φ* ≤ R_j M_j√(κ/T) =: Γ_j, and
 * strong convexity gives ‖a_{j+1} − w*‖² ≤ 2Γ_j/λ, so R_{j+1} = min(R_j, 2√(2Γ_j/λ)) (a confidence
 * factor 2 on the radius). Every step size and radius is a function of public constants and of earlier
 * private outputs only.
 *
 * <p><b>Privacy.</b> Add/remove-one. Per-example gradients are clipped to ℓ2 norm C (the loss's
 * declared Lipschitz bound, so clipping is inactive for a correctly declared loss), so one record
 * moves a batch sum by at most C and each step is a Poisson-subsampled Gaussian mechanism with
 * noise multiplier z. A phase is {@code SelfComposed(PoissonSampled(q, Gaussian(z)), T)}; phases use
 * disjoint parts, so 𝒜_sc is their parallel composition. {@link #plan} calibrates z with the given
 * accountant so that one phase meets (ε, δ). Empty batches still add noise and are recorded. Batches
 * come from {@link PoissonSampler#over} on the part, per-example gradients from the clip-and-sum kernel,
 * and every release is made by the {@link PrivateRun}, one part of its parallel composition per phase.
 *
 * <p>Immutable; {@link #run} keeps all state local.
 */
final class LocalizedMirrorDescent {

    /**
     * The public plan of one phase.
     *
     * @param plannedSize the public expected size s of a part
     * @param batch expected batch b = q·s (the normalizer)
     * @param steps T
     * @param noiseMultiplier z
     */
    record PhasePlan(double plannedSize, int batch, long steps, double noiseMultiplier) {
        /** Validates. */
        PhasePlan {
            Checks.positive("plannedSize", plannedSize);
            Checks.atLeastOne("batch", batch);
            Checks.atLeastOne("steps", steps);
            Checks.positive("noiseMultiplier", noiseMultiplier);
        }

        /** q = min(1, b/s). */
        double samplingProbability() {
            return Math.min(1.0, batch / plannedSize);
        }

        /** The event of one step. */
        DpEvent stepEvent() {
            return new PoissonSampledEvent(samplingProbability(), new GaussianEvent(noiseMultiplier));
        }

        /** The event of the whole phase. */
        DpEvent event() {
            return new SelfComposedEvent(stepEvent(), steps);
        }
    }

    /**
     * The AFKT21 shape for a part of expected size s: b = max(1, min(⌊s⌋, round(√s))), T = ⌈(s/b)²⌉,
     * and z calibrated so that one phase meets the budget.
     *
     * @throws IllegalArgumentException if s &lt; 1 or the budget is unreachable
     */
    static PhasePlan plan(double plannedSize, PrivacyAccountant accountant, PrivacyBudget budget) {
        Checks.notNull("accountant", accountant);
        Checks.notNull("budget", budget);
        if (!(plannedSize >= 1)) {
            throw Checks.fail("planned part size", "at least 1", plannedSize);
        }
        int b = (int) Math.max(1, Math.min(Math.floor(plannedSize), Math.round(Math.sqrt(plannedSize))));
        long t = (long) Math.ceil((plannedSize / b) * (plannedSize / b));
        double q = Math.min(1.0, b / plannedSize);
        double z = Calibration.noiseMultiplier(accountant,
                zz -> new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(zz)), t),
                budget.epsilon(), budget.delta());
        return new PhasePlan(plannedSize, b, t, z);
    }

    /**
     * The objective: data, loss, clip norm C, regularizer μψ(· − c), strong convexity λ, initial radius.
     *
     * @param data the dataset the parts index into
     * @param loss the per-example loss
     * @param clip C &gt; 0, per-example ℓ2 clip (the declared Lipschitz bound)
     * @param center c (copied by {@link #run})
     * @param mu μ ≥ 0
     * @param lambda λ &gt; 0, the strong convexity of φ w.r.t. ‖·‖_p̃
     * @param radius0 R₀ &gt; 0 with ‖w* − c‖_p̃ ≤ R₀ (public)
     */
    record Objective(Dataset data, Loss loss, double clip, DMatrixRMaj center, double mu, double lambda,
            double radius0) {
        /** Validates. */
        Objective {
            Checks.notNull("data", data);
            Checks.notNull("loss", loss);
            Checks.positive("clip", clip);
            Checks.vector("center", center, data.dimension());
            Checks.nonNegative("mu", mu);
            Checks.positive("lambda", lambda);
            Checks.positive("radius0", radius0);
        }
    }

    private final MirrorMap map;

    /** 𝒜_sc in the geometry of the given mirror map. */
    LocalizedMirrorDescent(MirrorMap map) {
        this.map = Checks.notNull("map", map);
    }

    /** The mirror map. */
    MirrorMap map() {
        return map;
    }

    /**
     * Runs the K phases on the parts parts[from], …, parts[from + K − 1] and returns the last anchor.
     * Each phase is one part of the caller's parallel composition: {@code parallel.nextPart()} is
     * called before its releases.
     *
     * @param run the run (releases, rng, mutation)
     * @param parallel the open parallel composition of the run's parts
     * @param obj the objective
     * @param parts disjoint index lists into {@code obj.data()} (chosen independently of the data)
     * @param from the first part of this call
     * @param phases K
     * @param plan the phase plan (same for every part)
     * @return a_{K+1} (new vector) and the realized per-example gradient count
     */
    Result run(PrivateRun run, PrivateRun.Parallel parallel, Objective obj, int[][] parts, int from, int phases,
            PhasePlan plan) {
        int d = map.dimension();
        Checks.vector("center", obj.center(), d);
        Dataset data = obj.data();
        Phase phase = new Phase(run, obj, plan, SmoothedLoss.runOracle(obj.loss(), d, data.rowNormBound()));
        double radius = obj.radius0();
        long evaluations = 0;
        for (int j = from; j < from + phases; j++) {
            parallel.nextPart();
            evaluations += phase.run(parts[j], radius);
            double gap = radius * phase.m * Math.sqrt(map.kappa() / plan.steps());
            radius = Math.min(radius, 2 * Math.sqrt(2 * gap / obj.lambda()));
            Vectors.copy(phase.avg, phase.anchor);
        }
        return new Result(phase.anchor, evaluations);
    }

    /**
     * The output of {@link #run}.
     *
     * @param anchor a_{K+1}
     * @param evaluations realized per-example gradients (non-private)
     */
    record Result(DMatrixRMaj anchor, long evaluations) {
    }

    /** The state of one 𝒜_sc call: work vectors, the current anchor and the last phase's M. */
    private final class Phase {
        private final PrivateRun run;
        private final Objective obj;
        private final PhasePlan plan;
        private final GradientOracle oracle;
        private final double clip;
        private final DMatrixRMaj c;
        private final DMatrixRMaj anchor;
        private final DMatrixRMaj w;
        private final DMatrixRMaj sum;
        private final DMatrixRMaj tmp;
        private final DMatrixRMaj theta;
        private final DMatrixRMaj avg;
        private int[] idx = new int[0];
        private double[] weights = new double[0];
        private BatchBuffers buffers = BatchBuffers.of(1);
        private double m;

        Phase(PrivateRun run, Objective obj, PhasePlan plan, GradientOracle oracle) {
            int d = map.dimension();
            this.run = run;
            this.obj = obj;
            this.plan = plan;
            this.oracle = oracle;
            this.clip = run.mutation() == Mutation.NO_CLIPPING ? Double.POSITIVE_INFINITY : obj.clip();
            this.c = obj.center().copy();
            this.anchor = c.copy();
            this.w = new DMatrixRMaj(d, 1);
            this.sum = new DMatrixRMaj(d, 1);
            this.tmp = new DMatrixRMaj(d, 1);
            this.theta = new DMatrixRMaj(d, 1);
            this.avg = new DMatrixRMaj(d, 1);
        }

        /** T noisy mirror steps on one part around the anchor with radius R_j; avg ← their average. */
        long run(int[] part, double radius) {
            double kappa = map.kappa();
            int b = plan.batch();
            long steps = plan.steps();
            double sigma = plan.noiseMultiplier() * obj.clip();
            double regGrad = obj.mu() * kappa * (map.distance(anchor, c) + radius);
            m = Math.sqrt(Math.pow(Math.sqrt(2) * obj.clip() + regGrad, 2)
                    + map.gaussianDualNormSquaredBound() * Math.pow(sigma / b, 2));
            double eta = radius * Math.sqrt(kappa) / (m * Math.sqrt(steps));
            if (idx.length < part.length) {
                idx = new int[part.length];
                weights = new double[part.length];
                buffers = BatchBuffers.of(part.length);
            }
            UniformRandomProvider rng = run.rng();
            BatchSampler.BatchIterator batches = PoissonSampler.over(part, part.length, plan.samplingProbability(), rng);
            DpEvent stepEvent = plan.stepEvent();
            Dataset data = obj.data();
            Vectors.copy(anchor, w);
            Vectors.zero(avg);
            long evaluations = 0;
            for (long t = 0; t < steps; t++) {
                Vectors.zero(sum);
                int k = batches.next(idx, weights);
                oracle.addClippedBatch(w, data, idx, 0, k, weights, clip, sum, tmp, buffers);
                evaluations += present(k, data.size());
                run.gaussian(sum, obj.clip(), stepEvent);
                step(b, eta, radius);
                Vectors.axpy(1.0 / steps, w, avg);
            }
            return evaluations;
        }

        private int present(int k, int rows) {
            int real = 0;
            for (int a = 0; a < k; a++) {
                if (idx[a] < rows) {
                    real++;
                }
            }
            return real;
        }

        /** g = sum/b + μ∇ψ(w − c); w ← a + ∇ψ*(∇ψ(w − a) − ηg), projected onto the ball around a. */
        private void step(int b, double eta, double radius) {
            int d = map.dimension();
            Vectors.scale(1.0 / b, sum);
            if (obj.mu() > 0) {
                subtract(w, c, tmp);
                map.gradient(tmp, tmp);
                Vectors.axpy(obj.mu(), tmp, sum);
            }
            subtract(w, anchor, tmp);
            map.gradient(tmp, theta);
            Vectors.axpy(-eta, sum, theta);
            map.conjugateGradient(theta, tmp);
            for (int j = 0; j < d; j++) {
                w.data[j] = anchor.data[j] + tmp.data[j];
            }
            map.projectBall(anchor, radius, w);
        }
    }

    private static void subtract(DMatrixRMaj a, DMatrixRMaj b, DMatrixRMaj out) {
        for (int j = 0; j < out.numRows; j++) {
            out.data[j] = a.data[j] - b.data[j];
        }
    }
}
