package org.dpopt.accounting;

import java.util.List;
import org.dpopt.linalg.Checks;

/**
 * Parallel composition: each component ran on a <em>disjoint</em> part of the data, chosen
 * independently of the data (possibly adaptively on earlier outputs). A record influences exactly one
 * part, so the guarantee is that of the worst component.
 *
 * <p>Sound under replace-one with any data-independent partition. Under add/remove-one the partition
 * must assign each record to a part independently of the other records (e.g. by a seeded random
 * label): splitting by position is <em>not</em> safe there, since removing a record shifts every
 * later part.
 *
 * @param events the per-part events (at least one)
 */
public record ParallelComposedEvent(List<DpEvent> events) implements DpEvent {
    /** Validates and copies. */
    public ParallelComposedEvent {
        events = DpEvents.components(events);
        if (events.isEmpty()) {
            throw Checks.fail("events", "non-empty", "[]");
        }
    }

    /** Convenience constructor. */
    public static ParallelComposedEvent of(DpEvent... events) {
        return new ParallelComposedEvent(List.of(events));
    }

    @Override
    public String describe() {
        if (events.size() > 1 && events.stream().allMatch(events.get(0)::equals)) {
            return "Parallel[" + events.size() + " disjoint parts, each " + events.get(0).describe() + "]";
        }
        return DpEvents.describeAll("Parallel", events);
    }
}
