package org.dpopt.accounting;

import java.util.List;
import java.util.Optional;

/**
 * Turns a {@link DpEvent} into (ε, δ) guarantees. Accountants are immutable pure functions of the
 * event: no hidden state, no mutation from outside, the neighbouring relation fixed at construction.
 *
 * <p>All bounds are <em>upper</em> bounds on the true privacy curve (the privacy-safe side);
 * {@link #report} additionally carries an optimistic lower bound where the method has one.
 */
public interface PrivacyAccountant {

    /** Short name for reports and the CLI, e.g. {@code "rdp"}. */
    String name();

    /** The neighbouring relation the event's sensitivities refer to. */
    NeighboringRelation relation();

    /**
     * Empty if every sub-event is supported; otherwise the reason for the first unsupported sub-event.
     */
    Optional<String> unsupportedReason(DpEvent event);

    /**
     * An upper bound on the smallest ε such that the event is (ε, δ)-DP; +∞ for non-private events.
     *
     * @throws UnsupportedEventException naming the unsupported sub-event
     * @throws IllegalArgumentException if δ ∉ (0, 1)
     */
    double epsilon(DpEvent event, double delta);

    /**
     * An upper bound on δ(ε) for the event.
     *
     * @throws UnsupportedEventException naming the unsupported sub-event
     * @throws IllegalArgumentException if ε &lt; 0
     */
    double delta(DpEvent event, double epsilon);

    /** A report at the given δ; the default has no lower bound and no warnings. */
    default PrivacyReport report(DpEvent event, double delta) {
        return new PrivacyReport(epsilon(event, delta), Double.NaN, delta, name(), relation(), event,
                Bound.UPPER, List.of());
    }
}
