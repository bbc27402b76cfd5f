package org.dpopt.optim.sgd;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.AblqAccountant;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.BaseOptimizer;
import org.dpopt.optim.core.Mutation;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.oracle.BatchGradientSource;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.FixedSizeBatchSampler;
import org.dpopt.sampling.PoissonSampler;
import org.dpopt.sampling.Samplers;

/**
 * Practical DP-SGD (Abadi, Chu, Goodfellow, McMahan, Mironov, Talwar, Zhang, "Deep Learning with
 * Differential Privacy", CCS 2016, arXiv:1607.00133).
 *
 * <p>Batches come from a {@link BatchSampler} (Poisson with q = b/n by default); each per-example
 * gradient is clipped to ℓ2 norm C; the clipped sum plus N(0, (zC)²I) is divided by the sampler's
 * <em>public</em> normalizer b̄ (the expected batch size, never the realized one); a step of size η,
 * an optional weight decay (1 − ηλ), projection onto W. The noise multiplier z is calibrated by the
 * accountant so that the sampler's event meets the budget. Empty batches still add noise and count as
 * a step. Output: the last iterate (the same algorithm as Opacus' DP-SGD), or with
 * {@link Builder#tailAverage()} the mean of the iterates of the last ⌈T/2⌉ steps (Polyak, Juditsky,
 * "Acceleration of Stochastic Approximation by Averaging", SIAM J. Control Optim. 1992). Either is
 * post-processing of the noisy sums the statement covers (theory-notes/noisy-sgd.md).
 *
 * <p>Privacy: the sampler's relation (add/remove-one for Poisson; zero-out for the fixed-size and
 * truncated samplers of {@link Samplers}, accounted by {@link AblqAccountant}); the statement is the
 * sampler's event at the calibrated z and the run records the sampler's step event once per noisy
 * batch sum (ABLQ; see {@code org.dpopt.sampling}). With Poisson sampling the plan is made for the
 * public n and is valid for any dataset of at most n rows.
 */
public final class NoisySgd extends BaseOptimizer<NoisySgd.Builder> {


    private NoisySgd(Builder b) {
        super("dp-sgd", b.sampler.relation(), b);
    }

    /** A builder with the documented defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The accountant used for calibration and the report: the configured one, else PLD for add/remove
     * samplers (Poisson) and the sampler-aware {@link AblqAccountant} for zero-out samplers.
     */
    public PrivacyAccountant accountant() {
        if (config.accountant != null) {
            return config.accountant;
        }
        return relation() == NeighboringRelation.ZERO_OUT ? new AblqAccountant() : new PldAccountant();
    }

    /**
     * The first averaged step of the tail average: the iterates after steps ⌊T/2⌋, …, T − 1 (the last
     * ⌈T/2⌉ iterates; the last iterate alone when T = 1).
     */
    static long tailStart(long steps) {
        return steps / 2;
    }

    /** Default expected batch size: min(256, max(1, n/10)). */
    public static int defaultBatchSize(int n) {
        return Math.max(1, Math.min(256, n / 10));
    }

    @Override
    protected RunPlan planFor(ProblemShape shape, PrivacyBudget budget) {
        int n = shape.size();
        int b = config.sgd.batchSizeFor(n);
        BatchSampler drawn = config.sampler.create(n, b, config.sgd.epochs());
        BatchSampler accounted = drawn;
        Mutation m = options().mutation();
        if (m == Mutation.HALF_RATE_ACCOUNTING) {
            accounted = new PoissonSampler(b / 2.0, drawn.steps(n));
        } else if (m == Mutation.SHUFFLE_AS_POISSON) {
            drawn = FixedSizeBatchSampler.dynamicShuffle(b, (int) Math.max(1, Math.round(config.sgd.epochs())));
            accounted = new PoissonSampler(b, drawn.steps(n));
        }
        PrivacyAccountant acc = accountant();
        if (accounted.relation() != acc.relation()) {
            throw Checks.fail("accountant relation", "the sampler's relation " + accounted.relation(), acc.relation());
        }
        boolean calibrated = Double.isNaN(config.noiseMultiplier);
        BatchSampler forEvent = accounted;
        double z = calibrated
                ? Calibration.noiseMultiplier(acc, zz -> forEvent.privacyEvent(n, zz), budget.epsilon(), budget.delta())
                : config.noiseMultiplier;
        long steps = drawn.steps(n);
        SgdSchedule s = new SgdSchedule(drawn, accounted.stepEvent(n, z), steps, drawn.normalizer(n),
                config.clipNorm, config.sgd.learningRate(), config.l2, config.tailAverage ? tailStart(steps) : SgdSchedule.last(steps));
        RunParameters.Builder p = RunParameters.builder()
                .put(Param.DATASET_SIZE, n)
                .put(Param.DIMENSION, shape.dimension())
                .put(Param.SAMPLER, drawn.name())
                .put(Param.BATCH_SIZE, (double) b)
                .put(Param.EPOCHS, config.sgd.epochs())
                .put(Param.STEPS, steps)
                .put(Param.NORMALIZER, s.normalizer())
                .put(Param.NOISE_MULTIPLIER, z)
                .put(Param.SIGMA, z * config.clipNorm)
                .put(Param.CLIP_NORM, config.clipNorm)
                .put(Param.LEARNING_RATE, config.sgd.learningRate())
                .put(Param.L2, config.l2)
                .put(Param.OUTPUT, config.tailAverage ? "tail-average" : "last")
                .put(Param.ACCOUNTANT, acc.name());
        if (drawn instanceof PoissonSampler ps) {
            p.put(Param.SAMPLING_RATE, ps.samplingProbability(n));
        }
        DpEvent statement = accounted.privacyEvent(n, z);
        return RunPlan.builder(name(), shape)
                .privacy(statement, accounted.relation(), acc, budget)
                .parameters(p.build())
                .budgetBinding(calibrated)
                .exactSizeRequired(drawn.requiresExactSize())
                .detail(s)
                .build();
    }

    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        return SgdLoop.run(problem, plan, rng, options());
    }

    /**
     * Runs a plan with batch sums from a source whose rows live elsewhere (a distributed engine): the
     * same loop, noise, ledger and report as {@link #run(Problem, RunPlan, UniformRandomProvider)}; with
     * the same generator and a keyed sampler ({@code PlannedPoissonSampler}) the batches are the same.
     *
     * @param shape the public shape of the distributed data (must be the plan's)
     * @param rows the actual number of rows (checked against the plan, never released)
     */
    public OptimizationResult run(BatchGradientSource source, ProblemShape shape, long rows, RunPlan plan,
            UniformRandomProvider rng) {
        Checks.notNull("source", source);
        SgdSchedule s = plan.detail(SgdSchedule.class);
        PrivateRun run = PrivateRun.startDistributed(plan, shape, rows, rng, options());
        return run.finish(SgdLoop.run(run, s, source));
    }

    /** The sampler a plan of this optimizer draws its batches from. */
    public static BatchSampler sampler(RunPlan plan) {
        return plan.detail(SgdSchedule.class).sampler();
    }

    @Override
    public String toString() {
        return "NoisySgd(batchSize=" + config.sgd.batchSize() + ", epochs=" + config.sgd.epochs()
                + ", clipNorm=" + config.clipNorm + ", learningRate=" + config.sgd.learningRate() + ", l2=" + config.l2
                + ", noiseMultiplier=" + config.noiseMultiplier
                + ", accountant=" + accountant().name() + ")";
    }

    /** Builder; every setter validates (defaults: b = min(256, n/10), E = 30, η = 1.0). */
    public static final class Builder extends SgdBuilder<Builder> {
        private Samplers.Recipe sampler = Samplers.poisson();
        private double clipNorm = 1.0;
        private double l2 = 0;
        private double noiseMultiplier = Double.NaN; // NaN: calibrate
        private PrivacyAccountant accountant = null; // null: chosen by the sampler's relation
        private boolean tailAverage = false;

        private Builder() {
            super(0, 30, 1.0); // batch size 0: min(256, n/10)
        }

        /** Batch sampler recipe (default Poisson). */
        public Builder sampler(Samplers.Recipe r) {
            this.sampler = Checks.notNull("sampler", r);
            return this;
        }

        /** Clip norm C &gt; 0 (default 1). */
        public Builder clipNorm(double c) {
            this.clipNorm = Checks.positive("clipNorm", c);
            return this;
        }

        /** ℓ2 regularization λ ≥ 0 added as (λ/2)‖w‖² (default 0). Data-independent. */
        public Builder l2(double lambda) {
            this.l2 = Checks.nonNegative("l2", lambda);
            return this;
        }

        /** Fixes the noise multiplier instead of calibrating it; the report then states the ε spent. */
        public Builder noiseMultiplier(double z) {
            this.noiseMultiplier = Checks.positive("noiseMultiplier", z);
            return this;
        }

        /**
         * Accountant used for calibration and reporting (default: PLD for add/remove samplers such as
         * Poisson; the sampler-aware {@link AblqAccountant} for zero-out samplers).
         */
        public Builder accountant(PrivacyAccountant a) {
            this.accountant = Checks.notNull("accountant", a);
            return this;
        }

        /**
         * Releases the mean of the iterates of the last ⌈T/2⌉ steps instead of the last iterate (the
         * default). Post-processing: the same event and noise.
         */
        public Builder tailAverage() {
            this.tailAverage = true;
            return this;
        }

        /** Builds the immutable optimizer. */
        public NoisySgd build() {
            return new NoisySgd(this);
        }
    }
}
