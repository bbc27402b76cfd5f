package org.dpopt.accounting;

import java.util.Optional;
import org.dpopt.linalg.Checks;

/**
 * An accountant that answers every query by asking a wrapped accountant; subclasses override the
 * queries they change (a cache, an added charge). The name and relation are the wrapped accountant's
 * unless a subclass says otherwise, so a wrapper that only forwards changes no report. A subclass that
 * changes the bound (adds a charge) must override all three of {@link #epsilon}, {@link #delta} and
 * {@link #report}: a query it leaves alone answers with the wrapped accountant's smaller bound.
 */
public abstract class ForwardingAccountant implements PrivacyAccountant {
    private final PrivacyAccountant inner;

    /** @param inner the wrapped accountant */
    protected ForwardingAccountant(PrivacyAccountant inner) {
        this.inner = Checks.notNull("inner", inner);
    }

    /**
     * The wrapped accountant, for subclasses only: a wrapper that adds a charge must not hand its callers
     * the wrapped accountant's smaller bound.
     */
    protected final PrivacyAccountant inner() {
        return inner;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public NeighboringRelation relation() {
        return inner.relation();
    }

    @Override
    public Optional<String> unsupportedReason(DpEvent event) {
        return inner.unsupportedReason(event);
    }

    @Override
    public double epsilon(DpEvent event, double delta) {
        return inner.epsilon(event, delta);
    }

    @Override
    public double delta(DpEvent event, double epsilon) {
        return inner.delta(event, epsilon);
    }

    @Override
    public PrivacyReport report(DpEvent event, double delta) {
        return inner.report(event, delta);
    }
}
