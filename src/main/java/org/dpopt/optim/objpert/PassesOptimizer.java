package org.dpopt.optim.objpert;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.core.BaseOptimizer;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.oracle.DataPasses;
import org.dpopt.oracle.DatasetPasses;
import org.ejml.data.DMatrixRMaj;

/**
 * What both objective-perturbation variants share about running a plan: replace-one privacy, and one
 * release routine over {@link DataPasses}, run either on the problem's in-memory rows or on rows that
 * live elsewhere (a distributed engine).
 *
 * @param <S> the variant's schedule, the plan's detail
 * @param <B> the variant's builder
 */
abstract class PassesOptimizer<S, B extends PerturbationBuilder<B>> extends BaseOptimizer<B> {

    /** The settings both variants share (λ, preset, comparator radius, σ_G rule, failure probability). */
    final PerturbationSettings settings;
    private final Class<S> scheduleType;

    PassesOptimizer(String name, Class<S> scheduleType, B builder) {
        super(name, NeighboringRelation.REPLACE_ONE, builder);
        this.settings = config.perturbationSettings();
        this.scheduleType = scheduleType;
    }

    /** Draws G, minimizes the perturbed objective over the passes and returns the release. */
    abstract DMatrixRMaj release(PrivateRun run, DataPasses passes, S schedule);

    @Override
    public final OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng) {
        S s = plan.detail(scheduleType);
        PrivateRun run = PrivateRun.start(plan, problem, rng, options());
        return run.finish(release(run, new DatasetPasses(problem.data()), s));
    }

    /**
     * Runs a plan on rows that live elsewhere (a distributed engine): every full pass over the data
     * (values, gradients, Hessians of J, SVRG's anchors) is a pass of {@code passes}, and the rows a
     * stochastic step needs are fetched by the indices this JVM drew from the run's generator, in the
     * in-memory order. The noise, the solve, the fallback and the ledger are this JVM's: the same
     * algorithm, draws, events and report as {@link #run(Problem, RunPlan, UniformRandomProvider)} (which
     * is this method on the in-memory passes); with the same generator, models that agree to the
     * rounding of the passes' sums.
     *
     * @param passes the rows (their number must be the planned n)
     * @param shape the public shape of the distributed data (must be the plan's)
     */
    public final OptimizationResult run(DataPasses passes, ProblemShape shape, RunPlan plan,
            UniformRandomProvider rng) {
        Checks.notNull("passes", passes);
        S s = plan.detail(scheduleType);
        PrivateRun run = PrivateRun.startDistributed(plan, shape, passes.size(), rng, options());
        return run.finish(release(run, passes, s));
    }
}
