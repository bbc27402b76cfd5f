package org.dpopt.accounting;

/** A release with no privacy guarantee: every accountant reports ε = +∞. */
public record NonPrivateEvent() implements DpEvent {
    /** The instance. */
    public static final NonPrivateEvent INSTANCE = new NonPrivateEvent();

    @Override
    public String describe() {
        return "non-private";
    }
}
