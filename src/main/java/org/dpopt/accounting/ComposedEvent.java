package org.dpopt.accounting;

import java.util.List;
import java.util.stream.Collectors;
import org.dpopt.linalg.Checks;

/**
 * Adaptive composition of a sequence of (possibly different) events.
 *
 * @param events the components, in order; copied into an unmodifiable list
 */
public record ComposedEvent(List<DpEvent> events) implements DpEvent {
    /** Validates and copies. */
    public ComposedEvent {
        Checks.notNull("events", events);
        for (DpEvent e : events) {
            Checks.notNull("component event", e);
        }
        events = List.copyOf(events);
    }

    /** Convenience constructor. */
    public static ComposedEvent of(DpEvent... events) {
        return new ComposedEvent(List.of(events));
    }

    @Override
    public String describe() {
        return "Composed[" + events.stream().map(DpEvent::describe).collect(Collectors.joining(", ")) + "]";
    }
}
