package org.dpopt.optim;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;

/**
 * A differentially private optimizer. Implementations are immutable: hyperparameters are final and
 * all run state lives inside {@link #run}, so one instance can be reused and shared.
 *
 * <p>Contract (checked at run time by the run core, {@code org.dpopt.optim.core.PrivateRun}, and for
 * every optimizer by the shared contract test):
 * <ol>
 * <li>{@link #plan} sees only the public {@link ProblemShape}: the schedule, the sensitivities and the
 * calibrated noise are functions of public constants, and the plan's statement is the composed event
 * of every noisy release a run makes;</li>
 * <li>every noisy release is made through the run core, which records its event in the same call, and
 * a run whose recorded ledger differs from the statement fails;</li>
 * <li>the number of steps never depends on the data;</li>
 * <li>a run calibrated to a budget certifies ε ≤ budget.</li>
 * </ol>
 *
 * <p>Randomness: pass {@code Rngs.secure()} for a private release. A seeded generator gives a
 * reproducible research run that is not private unless the seed is itself secret and random; its
 * report says so.
 */
public interface PrivateOptimizer {

    /** Short name used by the CLI and reports, e.g. {@code "dp-sgd"}. */
    String name();

    /** The neighbouring relation the privacy statement refers to. */
    NeighboringRelation relation();

    /**
     * Plans a run for the public shape and budget: no data is read.
     *
     * @param budget the target (ε, δ); null only for a non-private optimizer
     * @throws IllegalArgumentException if the shape or budget violates the algorithm's assumptions
     */
    RunPlan plan(ProblemShape shape, PrivacyBudget budget);

    /**
     * Runs a plan made by this optimizer on the problem's data.
     *
     * @throws IllegalArgumentException if the plan was made for another shape or by another optimizer
     */
    OptimizationResult run(Problem problem, RunPlan plan, UniformRandomProvider rng);

    /**
     * Plans for the problem's public shape and runs: the result's report certifies ε ≤ budget.epsilon.
     *
     * @param problem the data, loss and constraint set
     * @param budget the target (ε, δ)
     * @param rng the source of all randomness (noise and sampling)
     */
    default OptimizationResult optimize(Problem problem, PrivacyBudget budget, UniformRandomProvider rng) {
        Checks.notNull("problem", problem);
        return run(problem, plan(problem.shape(), budget), rng);
    }

    /** The event every run on the problem's public shape records (the plan's statement). */
    default DpEvent privacyEvent(Problem problem, PrivacyBudget budget) {
        Checks.notNull("problem", problem);
        return plan(problem.shape(), budget).statement();
    }
}
