package org.dpopt.optim.sgd;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.NonPrivateEvent;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.BaseOptimizer;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.oracle.BatchBuffers;
import org.dpopt.oracle.ExactGradientOracle;
import org.dpopt.oracle.GradientOracle;
import org.ejml.data.DMatrixRMaj;

/**
 * Mini-batch SGD with no clipping and no noise: the non-private baseline of the same loop (shuffled
 * epochs, batch mean, optional weight decay, projection). Its report is ε = ∞; it exists so that
 * benchmarks can show the price of privacy.
 */
public final class NonPrivateSgd extends BaseOptimizer<NonPrivateSgd.Builder> {

    private NonPrivateSgd(Builder b) {
        super("non-private", NeighboringRelation.ADD_OR_REMOVE_ONE, b);
    }

    /** A builder: b = min(256, n/10), 30 epochs, η = 1, no decay. */
    public static Builder builder() {
        return new Builder();
    }

    /** Detail of a plan. */
    private record Schedule(int batchSize, long stepsPerEpoch, long steps) {
    }

    /** The budget is ignored (and may be null): nothing is private. */
    @Override
    protected boolean needsBudget() {
        return false;
    }

    @Override
    protected RunPlan planFor(ProblemShape shape, PrivacyBudget budget) {
        int n = shape.size();
        int b = config.sgd.batchSize() > 0 ? Math.min(config.sgd.batchSize(), n) : NoisySgd.defaultBatchSize(n);
        long perEpoch = (n + b - 1) / b;
        long steps = (long) Math.ceil(config.sgd.epochs() * perEpoch);
        RunParameters p = RunParameters.builder()
                .put(Param.DATASET_SIZE, n)
                .put(Param.BATCH_SIZE, (double) b)
                .put(Param.EPOCHS, config.sgd.epochs())
                .put(Param.STEPS, steps)
                .put(Param.LEARNING_RATE, config.sgd.learningRate())
                .put(Param.L2, config.l2)
                .build();
        return RunPlan.builder(name(), shape)
                .privacy(NonPrivateEvent.INSTANCE, relation(), null, null)
                .parameters(p)
                .detail(new Schedule(b, perEpoch, steps))
                .build();
    }

    @Override
    public OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        Schedule s = plan.detail(Schedule.class);
        PrivateRun run = PrivateRun.start(plan, problem, rng, options());
        Dataset data = problem.data();
        int n = data.size();
        int d = problem.parameterDimension();
        int b = s.batchSize();
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        DMatrixRMaj sum = new DMatrixRMaj(d, 1);
        int[] perm = PermutationSampler.natural(n);
        GradientOracle oracle = new ExactGradientOracle(problem.loss(), Double.POSITIVE_INFINITY);
        BatchBuffers buffers = BatchBuffers.of(b); // the batch kernel dp-sgd uses: a like-for-like baseline
        for (long t = 0; t < s.steps(); t++) {
            int start = (int) ((t % s.stepsPerEpoch()) * b);
            if (start == 0) {
                PermutationSampler.shuffle(run.rng(), perm);
            }
            int end = Math.min(n, start + b);
            Vectors.zero(sum);
            oracle.addClippedBatch(w, data, perm, start, end, null, Double.POSITIVE_INFINITY, sum, g, buffers);
            if (config.l2 > 0) {
                Vectors.scale(1 - config.sgd.learningRate() * config.l2, w);
            }
            Vectors.axpy(-config.sgd.learningRate() / (end - start), sum, w);
            problem.domain().project(w);
        }
        if (run.diagnosticsOn()) {
            run.diagnose(Diagnostic.TRAIN_LOSS, problem.empiricalRisk(w));
        }
        return run.finish(w);
    }

    /** Builder. */
    public static final class Builder extends SgdBuilder<Builder> {
        private double l2 = 0;

        private Builder() {
            super(0, 30, 1.0); // batch size 0: min(256, n/10)
        }

        /** Weight decay λ ≥ 0 (default 0). */
        public Builder l2(double lambda) {
            this.l2 = Checks.nonNegative("l2", lambda);
            return this;
        }

        /** Builds the optimizer. */
        public NonPrivateSgd build() {
            return new NonPrivateSgd(this);
        }
    }
}
