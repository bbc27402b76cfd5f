package org.dpopt.accounting;

import org.dpopt.linalg.Checks;

/**
 * The same event composed {@code count} times (adaptively).
 *
 * @param event the repeated event
 * @param count number of repetitions ≥ 1
 */
public record SelfComposedEvent(DpEvent event, long count) implements DpEvent {
    /** Validates. */
    public SelfComposedEvent {
        Checks.notNull("event", event);
        Checks.atLeastOne("count", count);
    }

    @Override
    public String describe() {
        return count + " x " + event.describe();
    }
}
