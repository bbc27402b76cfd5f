package org.dpopt.accounting;

import org.dpopt.linalg.Checks;

/**
 * A release known only to be (ε, δ)-DP (for example from a theorem such as objective
 * perturbation, or report-noisy-max with pure ε when δ = 0).
 *
 * @param epsilon ε &gt; 0
 * @param delta δ ∈ [0, 1)
 */
public record EpsilonDeltaEvent(double epsilon, double delta) implements DpEvent {
    /** Validates the pair. */
    public EpsilonDeltaEvent {
        Checks.positive("epsilon", epsilon);
        if (!(delta >= 0 && delta < 1)) {
            throw Checks.fail("delta", "in [0, 1)", delta);
        }
    }

    @Override
    public String describe() {
        return "(" + epsilon + ", " + delta + ")-DP";
    }
}
