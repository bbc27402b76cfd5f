package org.dpopt.accounting;

/** A release that reveals nothing about the data (e.g. data-independent initialization). */
public record NoOpEvent() implements DpEvent {
    /** The instance. */
    public static final NoOpEvent INSTANCE = new NoOpEvent();

    @Override
    public String describe() {
        return "no-op";
    }
}
