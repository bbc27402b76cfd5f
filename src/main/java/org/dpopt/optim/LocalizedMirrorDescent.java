package org.dpopt.optim;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyLedger;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.MirrorMap;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Loss;
import org.dpopt.noise.GaussianNoise;
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
 * Hazan and Kale (2014), as used by Bassily, Guzmán, Menart (arXiv:2107.05585, Algorithm 6). See
 * ALGORITHMS.md §4.7.1–4.7.2 and {@code theory-notes/mirror-descent.md}.
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
 * accountant so that one phase meets (ε, δ). Empty batches still add noise and are recorded.
 *
 * <p>Immutable; {@link #run} keeps all state local.
 */
public final class LocalizedMirrorDescent {

    /**
     * The public plan of one phase.
     *
     * @param plannedSize the public expected size s of a part
     * @param batch expected batch b = q·s (the normalizer)
     * @param steps T
     * @param noiseMultiplier z
     */
    public record PhasePlan(double plannedSize, int batch, long steps, double noiseMultiplier) {
        /** Validates. */
        public PhasePlan {
            Checks.positive("plannedSize", plannedSize);
            Checks.atLeastOne("batch", batch);
            Checks.atLeastOne("steps", steps);
            Checks.positive("noiseMultiplier", noiseMultiplier);
        }

        /** q = min(1, b/s). */
        public double samplingProbability() {
            return Math.min(1.0, batch / plannedSize);
        }

        /** The event of one step. */
        public DpEvent stepEvent() {
            return new PoissonSampledEvent(samplingProbability(), new GaussianEvent(noiseMultiplier));
        }

        /** The event of the whole phase. */
        public DpEvent event() {
            return new SelfComposedEvent(stepEvent(), steps);
        }
    }

    /**
     * The AFKT21 shape for a part of expected size s: b = max(1, min(⌊s⌋, round(√s))), T = ⌈(s/b)²⌉,
     * and z calibrated so that one phase meets the budget.
     *
     * @throws IllegalArgumentException if s &lt; 1 or the budget is unreachable
     */
    public static PhasePlan plan(double plannedSize, PrivacyAccountant accountant, PrivacyBudget budget) {
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
    public record Objective(Dataset data, Loss loss, double clip, DMatrixRMaj center, double mu, double lambda,
            double radius0) {
        /** Validates. */
        public Objective {
            Checks.notNull("data", data);
            Checks.notNull("loss", loss);
            Checks.positive("clip", clip);
            Checks.finite("clip", clip);
            Checks.vector("center", center, data.dimension());
            Checks.nonNegative("mu", mu);
            Checks.positive("lambda", lambda);
            Checks.positive("radius0", radius0);
            Checks.finite("radius0", radius0);
        }
    }

    private final MirrorMap map;

    /** 𝒜_sc in the geometry of the given mirror map. */
    public LocalizedMirrorDescent(MirrorMap map) {
        this.map = Checks.notNull("map", map);
    }

    /** The mirror map. */
    public MirrorMap map() {
        return map;
    }

    /** Counters of one run. */
    static final class Counters {
        long steps;
        long evaluations;
    }

    /**
     * Runs the K phases on the given disjoint parts and returns the last anchor.
     *
     * @param obj the objective
     * @param parts K disjoint index lists into {@code obj.data()} (chosen independently of the data)
     * @param plan the phase plan (same for every part)
     * @param phaseEvents receives one recorded event per phase (the phase's own ledger)
     * @param rng the source of noise and sampling
     * @param counters step and evaluation counters (updated)
     * @return a_{K+1} (new vector)
     */
    DMatrixRMaj run(Objective obj, int[][] parts, PhasePlan plan, List<DpEvent> phaseEvents,
            UniformRandomProvider rng, Counters counters) {
        int d = map.dimension();
        Checks.vector("center", obj.center(), d);
        Dataset data = obj.data();
        Loss loss = obj.loss();
        GeneralizedLinearLoss gll = loss instanceof GeneralizedLinearLoss g ? g : null;
        double clip = obj.clip();
        double kappa = map.kappa();
        double noiseSq = map.gaussianDualNormSquaredBound();
        int b = plan.batch();
        long steps = plan.steps();
        double q = plan.samplingProbability();
        double sigma = plan.noiseMultiplier() * clip;
        DpEvent stepEvent = plan.stepEvent();
        GaussianNoise noise = GaussianNoise.of(rng);
        double logOneMinusQ = q < 1 ? Math.log1p(-q) : Double.NEGATIVE_INFINITY;

        DMatrixRMaj c = obj.center().copy();
        DMatrixRMaj anchor = c.copy();
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj sum = new DMatrixRMaj(d, 1);
        DMatrixRMaj tmp = new DMatrixRMaj(d, 1);
        DMatrixRMaj theta = new DMatrixRMaj(d, 1);
        DMatrixRMaj avg = new DMatrixRMaj(d, 1);
        double radius = obj.radius0();
        for (int[] part : parts) {
            PrivacyLedger phaseLedger = new PrivacyLedger();
            double regGrad = obj.mu() * kappa * (map.distance(anchor, c) + radius);
            double m = Math.sqrt(Math.pow(Math.sqrt(2) * clip + regGrad, 2) + noiseSq * Math.pow(sigma / b, 2));
            double eta = radius * Math.sqrt(kappa) / (m * Math.sqrt(steps));
            Vectors.copy(anchor, w);
            Vectors.zero(avg);
            for (long t = 0; t < steps; t++) {
                Vectors.zero(sum);
                // Poisson batch over the part by geometric skips
                long i = -1;
                while (true) {
                    if (q >= 1) {
                        i++;
                    } else {
                        double u = 1.0 - rng.nextDouble();
                        i += (long) Math.floor(Math.log(u) / logOneMinusQ) + 1;
                    }
                    if (i >= part.length || i < 0) {
                        break;
                    }
                    int row = part[(int) i];
                    if (gll != null) {
                        double g = gll.derivative(data.dot(row, w), data.label(row));
                        double norm = Math.abs(g) * data.rowNorm(row);
                        data.addScaledRow(row, norm > clip ? g * clip / norm : g, sum);
                    } else {
                        loss.gradient(w, data, row, tmp);
                        Vectors.clipL2(tmp, clip);
                        Vectors.axpy(1.0, tmp, sum);
                    }
                    counters.evaluations++;
                }
                noise.addTo(sum, sigma);
                phaseLedger.record(stepEvent);
                counters.steps++;
                // g = sum/b + μ∇ψ(w − c)
                Vectors.scale(1.0 / b, sum);
                if (obj.mu() > 0) {
                    subtract(w, c, tmp);
                    map.gradient(tmp, tmp);
                    Vectors.axpy(obj.mu(), tmp, sum);
                }
                // mirror step around the anchor
                subtract(w, anchor, tmp);
                map.gradient(tmp, theta);
                Vectors.axpy(-eta, sum, theta);
                map.conjugateGradient(theta, tmp);
                for (int j = 0; j < d; j++) {
                    w.data[j] = anchor.data[j] + tmp.data[j];
                }
                map.projectBall(anchor, radius, w);
                Vectors.axpy(1.0 / steps, w, avg);
            }
            phaseEvents.add(phaseLedger.build());
            double gap = radius * m * Math.sqrt(kappa / steps);
            radius = Math.min(radius, 2 * Math.sqrt(2 * gap / obj.lambda()));
            Vectors.copy(avg, anchor);
        }
        return anchor;
    }

    /** The statement for K phases of this plan (before parallel composition): K copies of the phase event. */
    static List<DpEvent> phaseStatements(PhasePlan plan, int k) {
        List<DpEvent> l = new ArrayList<>(k);
        for (int j = 0; j < k; j++) {
            l.add(plan.event());
        }
        return l;
    }

    private static void subtract(DMatrixRMaj a, DMatrixRMaj b, DMatrixRMaj out) {
        for (int j = 0; j < out.numRows; j++) {
            out.data[j] = a.data[j] - b.data[j];
        }
    }
}
