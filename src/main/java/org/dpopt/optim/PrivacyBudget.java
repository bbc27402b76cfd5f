package org.dpopt.optim;

import org.dpopt.linalg.Checks;

/**
 * A target (ε, δ).
 *
 * @param epsilon ε &gt; 0, finite
 * @param delta δ ∈ (0, 1)
 */
public record PrivacyBudget(double epsilon, double delta) {
    /** Validates ε &gt; 0 and δ ∈ (0, 1). */
    public PrivacyBudget {
        Checks.epsilon("epsilon", epsilon);
        Checks.delta("delta", delta);
    }

    /** The budget (ε, δ). */
    public static PrivacyBudget of(double epsilon, double delta) {
        return new PrivacyBudget(epsilon, delta);
    }
}
