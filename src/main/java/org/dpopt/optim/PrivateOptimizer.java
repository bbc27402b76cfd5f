package org.dpopt.optim;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.loss.Problem;

/**
 * A differentially private optimizer. Implementations are immutable: hyperparameters are final and
 * all run state lives inside {@link #optimize}, so one instance can be reused and shared.
 *
 * <p>Contract: (1) {@link #privacyEvent} states, <em>before any data is read</em>, the composed event
 * of every noisy release a run on a dataset of public size n makes; (2) a run records a ledger of
 * the releases it actually made, and the ledger's canonical form equals the statement (tested for
 * every optimizer); (3) the number of steps never depends on the data; (4) sensitivities come from
 * public constants only.
 */
public interface PrivateOptimizer {

    /** Short name used by the CLI, e.g. {@code "dp-sgd"}. */
    String name();

    /**
     * Runs the optimizer.
     *
     * @param problem the data, loss and constraint set
     * @param budget the target (ε, δ); the result's report certifies ε ≤ budget.epsilon
     * @param rng the source of all randomness (noise and sampling)
     * @throws IllegalArgumentException if the problem or budget violates the algorithm's assumptions
     */
    OptimizationResult optimize(Problem problem, PrivacyBudget budget, UniformRandomProvider rng);

    /** The event every run on n records will produce, for the given budget (after calibration). */
    DpEvent privacyEvent(Problem problem, PrivacyBudget budget);

    /** The neighbouring relation the privacy statement refers to. */
    NeighboringRelation relation();
}
