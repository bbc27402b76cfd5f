package org.dpopt.audit;

import java.util.Set;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.core.Mutation;
import org.dpopt.optim.core.ReleaseObserver;

/**
 * One audit configuration: an optimizer (built per mutant, with an observer of its releases), the
 * neighbouring pair it is run on, the budget it is calibrated to and the statistic that attacks it.
 *
 * @param algorithm the optimizer's CLI name
 * @param design a short name of the configuration (the canary and what the statistic sees)
 * @param budget the (ε, δ) the optimizer is calibrated to
 * @param pair the neighbouring datasets
 * @param loss the loss of both problems
 * @param domain the constraint set of both problems
 * @param factory builds the optimizer for a mutant with an observer
 * @param statistic the test statistic
 * @param mutants the mutants this configuration can run (the optimizer implements them and the canary
 *                exposes them); {@link Mutation#NONE} is always allowed
 * @param curveAccountant the accountant for the ledger test's constraints (null: the claim's)
 * @param claimAccountant the accountant that states the claim if the run's plan names none (optimizers
 *                        not yet on the run core); null otherwise
 * @param notes what the configuration does, one paragraph
 */
public record AuditTarget(String algorithm, String design, PrivacyBudget budget, NeighbouringPair pair, Loss loss,
        ConvexSet domain, OptimizerFactory factory, AuditStatistic statistic, Set<Mutation> mutants,
        PrivacyAccountant curveAccountant, PrivacyAccountant claimAccountant, String notes) {

    /** Builds the optimizer under audit. */
    @FunctionalInterface
    public interface OptimizerFactory {
        /**
         * @param mutant the deliberate bug ({@link Mutation#NONE}: the real algorithm)
         * @param observer to be installed with the builder's {@code observer(...)} (white-box statistics)
         */
        PrivateOptimizer build(Mutation mutant, ReleaseObserver observer);
    }

    /** Validates. */
    public AuditTarget {
        Checks.allNotNull("algorithm", algorithm, "design", design, "budget", budget, "pair", pair, "loss", loss,
                "domain", domain, "factory", factory, "statistic", statistic);
        mutants = Set.copyOf(Checks.notNull("mutants", mutants));
        Checks.notNull("notes", notes);
    }

    /** True if this configuration runs the mutant. */
    public boolean runs(Mutation m) {
        return m == Mutation.NONE || mutants.contains(m);
    }
}
