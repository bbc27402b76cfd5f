package org.dpopt.accounting;

import java.util.ArrayList;
import java.util.List;
import org.dpopt.linalg.Checks;

/**
 * A run-time record of every noisy release an optimizer made. Mutable and confined to one run
 * ({@code optimize} creates its own). {@link #build()} returns the canonical event
 * ({@link DpEvents#normalize}), which tests compare with the optimizer's up-front statement.
 */
public final class PrivacyLedger {
    private final List<DpEvent> events = new ArrayList<>();
    private DpEvent last;
    private long lastCount;

    /** Records one release. */
    public void record(DpEvent e) {
        record(e, 1);
    }

    /** Records {@code count} identical releases. */
    public void record(DpEvent e, long count) {
        Checks.notNull("event", e);
        Checks.atLeastOne("count", count);
        if (e.equals(last)) {
            lastCount += count;
            return;
        }
        flush();
        last = e;
        lastCount = count;
    }

    private void flush() {
        if (last != null) {
            events.add(lastCount == 1 ? last : new SelfComposedEvent(last, lastCount));
        }
    }

    /** The canonical composed event of everything recorded so far. */
    public DpEvent build() {
        List<DpEvent> all = new ArrayList<>(events);
        if (last != null) {
            all.add(lastCount == 1 ? last : new SelfComposedEvent(last, lastCount));
        }
        return DpEvents.normalize(new ComposedEvent(all));
    }
}
