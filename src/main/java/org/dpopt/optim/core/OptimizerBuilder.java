package org.dpopt.optim.core;

import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.PrivateOptimizer;

/**
 * The settings every optimizer builder shares: {@link #diagnostics(boolean)} and, for audits,
 * {@link #mutation(Mutation)}. Concrete builders extend it with their hyperparameters.
 *
 * @param <B> the concrete builder type
 */
public abstract class OptimizerBuilder<B extends OptimizerBuilder<B>> implements Cloneable {
    private RunOptions options = RunOptions.DEFAULT;

    /** For subclasses. */
    protected OptimizerBuilder() {
    }

    /**
     * This builder, typed. Concrete builders are declared {@code Foo.Builder extends
     * OptimizerBuilder<Foo.Builder>}, so the cast holds.
     */
    @SuppressWarnings("unchecked")
    protected B self() {
        return (B) this;
    }

    /**
     * Whether runs compute non-private diagnostics (training loss, realized counts, ...), reported
     * apart from the private release (default false).
     */
    public B diagnostics(boolean on) {
        options = options.withDiagnostics(on);
        return self();
    }

    /** Auditing only: a deliberately broken variant (default {@link Mutation#NONE}). */
    public B mutation(Mutation m) {
        options = options.withMutation(Checks.notNull("mutation", m));
        return self();
    }

    /** Auditing and teaching: an observer of every noisy release of each run (default none). */
    public B observer(ReleaseObserver o) {
        options = options.withObserver(Checks.notNull("observer", o));
        return self();
    }

    /** Sets all shared settings at once (for {@code toBuilder}). */
    public B runOptions(RunOptions o) {
        options = Checks.notNull("options", o);
        return self();
    }

    /**
     * For accountant setters: a, checked to state its guarantee under {@code relation}, the relation of
     * {@code algorithm}'s guarantee.
     *
     * @throws IllegalArgumentException if a is null or accounts under another relation
     */
    protected static PrivacyAccountant requireRelation(PrivacyAccountant a, NeighboringRelation relation,
            String algorithm) {
        Checks.notNull("accountant", a);
        if (a.relation() != relation) {
            throw Checks.fail("accountant relation", relation + " for " + algorithm, a.relation());
        }
        return a;
    }

    /** Builds the immutable optimizer. */
    public abstract PrivateOptimizer build();

    /** The shared settings. */
    public RunOptions runOptions() {
        return options;
    }

    /**
     * An independent copy of every setting of this builder. An optimizer keeps one copy as its settings
     * (it never calls a setter on it) and hands out another from {@code toBuilder}, so each setting is
     * declared once, in its builder. Builders hold values, immutable objects or private copies, so a
     * field-by-field copy is a deep enough copy.
     */
    @SuppressWarnings("unchecked")
    public final B copy() {
        try {
            return (B) super.clone();
        } catch (CloneNotSupportedException e) {
            throw new AssertionError("OptimizerBuilder is Cloneable", e);
        }
    }
}
