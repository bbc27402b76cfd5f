package org.dpopt.cli;

import org.dpopt.linalg.Checks;
import org.dpopt.optim.PrivacyBudget;
import picocli.CommandLine.Option;

/** The target budget of one {@code dpopt train} run, {@code --epsilon E --delta D} (a picocli mixin). */
final class PrivacyTarget {
    @Option(names = "--epsilon", description = "Target epsilon > 0.")
    Double epsilon;
    @Option(names = "--delta", description = "Target delta in (0,1).")
    Double delta;

    /**
     * The budget of a private algorithm (both flags required and checked); null for the non-private
     * baseline, which refuses them.
     */
    PrivacyBudget budget(AlgorithmSpec alg) {
        if (!alg.isPrivate()) {
            if (epsilon != null || delta != null) {
                throw Checks.fail(epsilon != null ? "--epsilon" : "--delta", "absent for " + alg.name()
                        + " (it makes no privacy claim)", epsilon != null ? epsilon : delta);
            }
            return null;
        }
        if (epsilon == null) {
            throw Checks.fail("--epsilon", "given for a private algorithm", "absent");
        }
        if (delta == null) {
            throw Checks.fail("--delta", "given for a private algorithm", "absent");
        }
        Checks.epsilon("--epsilon", epsilon);
        Checks.delta("--delta", delta);
        TrainLimits.epsilon(epsilon);
        return PrivacyBudget.of(epsilon, delta);
    }
}
