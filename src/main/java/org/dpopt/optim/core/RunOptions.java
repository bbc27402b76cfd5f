package org.dpopt.optim.core;

import org.dpopt.linalg.Checks;

/**
 * How an optimizer runs, beyond its hyperparameters: whether it computes non-private diagnostics,
 * and (for auditing only) a deliberate {@link Mutation}.
 *
 * @param diagnostics compute non-private diagnostics (extra data passes; not covered by the report)
 * @param mutation {@link Mutation#NONE} except in audits
 * @param observer sees every noisy release ({@link ReleaseObserver#NONE} by default)
 */
public record RunOptions(boolean diagnostics, Mutation mutation, ReleaseObserver observer) {

    /** No diagnostics, no mutation, no observer. */
    public static final RunOptions DEFAULT = new RunOptions(false, Mutation.NONE, ReleaseObserver.NONE);

    /** Validates. */
    public RunOptions {
        Checks.notNull("mutation", mutation);
        Checks.notNull("observer", observer);
    }

    /** A copy with diagnostics on or off. */
    public RunOptions withDiagnostics(boolean on) {
        return new RunOptions(on, mutation, observer);
    }

    /** A copy with a mutation. */
    public RunOptions withMutation(Mutation m) {
        return new RunOptions(diagnostics, m, observer);
    }

    /** A copy with a release observer. */
    public RunOptions withObserver(ReleaseObserver o) {
        return new RunOptions(diagnostics, mutation, o);
    }
}
