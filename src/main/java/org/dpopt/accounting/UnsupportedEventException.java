package org.dpopt.accounting;

/**
 * Thrown when an accountant cannot bound an event. Names the offending sub-event and the reason, so
 * that a composite event's failure is traceable.
 */
public final class UnsupportedEventException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The sub-event that could not be accounted. */
    private final transient DpEvent event;

    /** Creates the exception for a sub-event and reason. */
    public UnsupportedEventException(DpEvent event, String accountant, String reason) {
        super(accountant + " does not support " + event.describe() + ": " + reason);
        this.event = event;
    }

    /** The unsupported sub-event. */
    public DpEvent event() {
        return event;
    }
}
