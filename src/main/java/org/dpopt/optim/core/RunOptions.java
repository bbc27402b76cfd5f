package org.dpopt.optim.core;

import org.dpopt.linalg.Checks;

/**
 * How an optimizer runs, beyond its hyperparameters: whether it computes non-private diagnostics,
 * and (for auditing only) a deliberate {@link Mutation}.
 *
 * @param diagnostics compute non-private diagnostics (extra data passes; not covered by the report)
 * @param mutation {@link Mutation#NONE} except in audits
 */
public record RunOptions(boolean diagnostics, Mutation mutation) {

    /** No diagnostics, no mutation. */
    public static final RunOptions DEFAULT = new RunOptions(false, Mutation.NONE);

    /** Validates. */
    public RunOptions {
        Checks.notNull("mutation", mutation);
    }

    /** A copy with diagnostics on or off. */
    public RunOptions withDiagnostics(boolean on) {
        return new RunOptions(on, mutation);
    }

    /** A copy with a mutation. */
    public RunOptions withMutation(Mutation m) {
        return new RunOptions(diagnostics, m);
    }
}
