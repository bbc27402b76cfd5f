package org.dpopt.accounting;

import java.util.List;

/**
 * Adaptive composition of a sequence of (possibly different) events.
 *
 * @param events the components, in order; copied into an unmodifiable list
 */
public record ComposedEvent(List<DpEvent> events) implements DpEvent {
    /** Validates and copies. */
    public ComposedEvent {
        events = DpEvents.components(events);
    }

    /** Convenience constructor. */
    public static ComposedEvent of(DpEvent... events) {
        return new ComposedEvent(List.of(events));
    }

    @Override
    public String describe() {
        return DpEvents.describeAll("Composed", events);
    }
}
