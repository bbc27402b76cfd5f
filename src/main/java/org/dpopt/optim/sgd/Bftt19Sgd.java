package org.dpopt.optim.sgd;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.Preset;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.BaseOptimizer;
import org.dpopt.sampling.PoissonSampler;

/**
 * Noisy mini-batch SGD with the parameters of Bassily, Feldman, Talwar, Thakurta, "Private Stochastic
 * Convex Optimization with Optimal Rates", NeurIPS 2019, arXiv:1908.09970 (A_NSGD, Algorithm 1,
 * Theorem 3.2):
 * <pre>
 *   T = ⌊min(n/8, ε²n²/(32 d ln(1/δ)))⌋,   η = M/(L√T),   m = ⌈max(n√(ε/(4T)), 1)⌉
 * </pre>
 * over the ℓ2 ball of radius M (the problem's domain), clip norm L, averaged iterate. Requires a
 * smooth loss with β ≤ (L/M)·min(√(n/2), εn/√(8 d ln(1/δ))) and refuses otherwise. Batches are Poisson
 * with q = m/n (the paper samples with replacement, which the Poisson accountant does not cover) and
 * the noise is calibrated by our accountant rather than the paper's non-explicit constant; see
 * {@code theory-notes/noisy-sgd.md}. The run loop is practical DP-SGD's ({@link NoisySgd}).
 *
 * <p>That is the {@link Preset#PAPER} preset. At small n it wastes the budget (T = 18 steps at n = 455,
 * d = 31, ε = 1), so the default is {@link Preset#PRACTICAL}: the same projected, averaged noisy SGD
 * over the ℓ2 ball of radius M with the schedule of practical DP-SGD — E = 30 epochs of Poisson batches
 * of expected size b = min(256, n/10), T = ⌈En/b⌉, clip norm L, step η = 1 — and the released point
 * the average of the last half of the iterates (tail averaging; every iterate is a released noisy
 * quantity, so any average of them is post-processing). The BFTT19 smoothness condition is a utility
 * condition, checked for the paper preset only (theory-notes/defaults.md).
 *
 * <p>Privacy: add/remove-one, {@code T × PoissonSampled(q, Gaussian(z))}, z calibrated to the budget
 * for either preset.
 */
public final class Bftt19Sgd extends BaseOptimizer<Bftt19Sgd.Builder> {
    /** Practical preset: epochs. */
    public static final double PRACTICAL_EPOCHS = 30;
    /** Practical preset: the step size η (applied to the batch mean). */
    public static final double PRACTICAL_LEARNING_RATE = 1;
    /** Practical preset: the released average covers this last fraction of the iterates. */
    public static final double PRACTICAL_TAIL = 0.5;

    private Bftt19Sgd(Builder b) {
        super("nsgd", NeighboringRelation.ADD_OR_REMOVE_ONE, b);
    }

    /** A builder (PLD accountant by default). */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    protected RunPlan planFor(ProblemShape shape, PrivacyBudget budget) {
        int n = shape.size();
        int d = shape.parameterDimension(); // the dimension of the noise (k·d for a k-class model)
        double eps = budget.epsilon();
        double logInvDelta = Math.log(1 / budget.delta());
        double m0 = shape.domain().radius(d);
        if (!Double.isFinite(m0)) {
            throw Checks.fail("domain radius M", "finite for the paper preset (use an L2 ball)", m0);
        }
        double lip = shape.lipschitz();
        double beta = shape.smoothness();
        if (config.preset == Preset.PRACTICAL) {
            return practicalPlan(shape, budget, m0, lip, beta);
        }
        if (!Double.isFinite(beta)) {
            throw Checks.fail("loss smoothness", "finite for the paper preset of noisy SGD (use phased-sgd or "
                    + "prox-sgd for non-smooth losses)", beta);
        }
        double betaMax = (lip / m0) * Math.min(Math.sqrt(n / 2.0), eps * n / Math.sqrt(8 * d * logInvDelta));
        if (beta > betaMax) {
            throw Checks.fail("smoothness beta", "at most (L/M)*min(sqrt(n/2), eps*n/sqrt(8 d ln(1/delta))) = "
                    + betaMax + " for the BFTT19 theorem", beta);
        }
        long t = (long) Math.floor(Math.min(n / 8.0, eps * eps * n * (double) n / (32 * d * logInvDelta)));
        if (t < 1) {
            throw Checks.fail("T = floor(min(n/8, eps^2 n^2/(32 d ln(1/delta))))", "at least 1", t);
        }
        double eta = m0 / (lip * Math.sqrt(t));
        int m = (int) Math.ceil(Math.max(n * Math.sqrt(eps / (4.0 * t)), 1));
        m = Math.min(m, n);
        return plan(shape, budget, new PoissonSampler(m, t), t, m, eta, 0, m0, lip, beta);
    }

    /** The practical schedule (see the class comment); the overrides replace its E, b and η. */
    private RunPlan practicalPlan(ProblemShape shape, PrivacyBudget budget, double m0, double lip, double beta) {
        int n = shape.size();
        int b = config.sgd.batchSizeFor(n);
        double e = Double.isNaN(config.sgd.epochs()) ? PRACTICAL_EPOCHS : config.sgd.epochs();
        long t = Math.max(1, (long) Math.ceil(e * n / b));
        double eta = Double.isNaN(config.sgd.learningRate()) ? PRACTICAL_LEARNING_RATE : config.sgd.learningRate();
        long from = (long) Math.floor(t * (1 - PRACTICAL_TAIL));
        return plan(shape, budget, new PoissonSampler(b, t), t, b, eta, Math.min(from, t - 1), m0, lip, beta);
    }

    private RunPlan plan(ProblemShape shape, PrivacyBudget budget, PoissonSampler s, long t, int m, double eta,
            long averageFrom, double m0, double lip, double beta) {
        int n = shape.size();
        double z = Calibration.noiseMultiplier(config.accountant, zz -> s.privacyEvent(n, zz), budget.epsilon(),
                budget.delta());
        SgdSchedule schedule = new SgdSchedule(s, s.stepEvent(n, z), t, s.normalizer(n), lip, eta, 0, averageFrom);
        RunParameters p = RunParameters.builder()
                .put(Param.DATASET_SIZE, n)
                .put(Param.DIMENSION, shape.dimension())
                .put(Param.PRESET, config.preset.key())
                .put(Param.RADIUS, m0)
                .put(Param.LIPSCHITZ, lip)
                .putIfFinite(Param.SMOOTHNESS, beta)
                .put(Param.SAMPLER, s.name())
                .put(Param.BATCH_SIZE, (double) m)
                .put(Param.SAMPLING_RATE, s.samplingProbability(n))
                .put(Param.STEPS, t)
                .put(Param.NORMALIZER, schedule.normalizer())
                .put(Param.NOISE_MULTIPLIER, z)
                .put(Param.SIGMA, z * lip)
                .put(Param.CLIP_NORM, lip)
                .put(Param.LEARNING_RATE, eta)
                .put(Param.OUTPUT, averageFrom == 0 ? "average" : "tail-average")
                .put(Param.ACCOUNTANT, config.accountant.name())
                .build();
        return RunPlan.builder(name(), shape)
                .privacy(s.privacyEvent(n, z), relation(), config.accountant, budget)
                .parameters(p)
                .exactSizeRequired(false)
                .detail(schedule)
                .build();
    }

    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        return SgdLoop.run(problem, plan, rng, options());
    }

    @Override
    public String toString() {
        return "Bftt19Sgd(preset=" + config.preset.key() + ", accountant=" + config.accountant.name() + ")";
    }

    /**
     * Builder. {@code epochs}, {@code batchSize} and {@code learningRate} apply to the practical preset
     * only (defaults {@value #PRACTICAL_EPOCHS} epochs, b = min(256, n/10), η =
     * {@value #PRACTICAL_LEARNING_RATE}).
     */
    public static final class Builder extends SgdBuilder<Builder> {
        private Preset preset = Preset.PRACTICAL;
        private PrivacyAccountant accountant = new PldAccountant();

        private Builder() {
            super(0, Double.NaN, Double.NaN); // unset: the preset's
        }

        /**
         * {@link Preset#PRACTICAL} (default: DP-SGD's schedule, tail-averaged, over the ball) or
         * {@link Preset#PAPER} (T, η and m from Theorem 3.2, all iterates averaged).
         */
        public Builder preset(Preset p) {
            this.preset = Checks.notNull("preset", p);
            return this;
        }

        /** The add/remove-one accountant that calibrates z (default PLD). */
        public Builder accountant(PrivacyAccountant a) {
            this.accountant = requireRelation(a, NeighboringRelation.ADD_OR_REMOVE_ONE, "nsgd");
            return this;
        }

        /** Builds the immutable optimizer; the schedule overrides need the practical preset. */
        public Bftt19Sgd build() {
            if (preset == Preset.PAPER && (!Double.isNaN(sgd.epochs()) || sgd.batchSize() > 0
                    || !Double.isNaN(sgd.learningRate()))) {
                throw Checks.fail("preset", "practical when epochs, batchSize or learningRate is set (the paper "
                        + "preset takes T, m and eta from the theorem)", preset.key());
            }
            return new Bftt19Sgd(this);
        }
    }
}
