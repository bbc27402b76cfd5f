package org.dpopt.accounting;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.dpopt.linalg.Checks;

/** Operations on events: canonical normal form (used to compare a ledger with a statement). */
public final class DpEvents {
    private DpEvents() {
    }

    /** A combinator's components as an unmodifiable copy, refusing a null list or a null component. */
    static List<DpEvent> components(List<DpEvent> events) {
        Checks.notNull("events", events);
        for (DpEvent e : events) {
            Checks.notNull("component event", e);
        }
        return List.copyOf(events);
    }

    /**
     * The events a combinator is built from: the inner event of a Poisson-sampled or a self-composed
     * event, the parts of a sequential or a parallel composition (possibly none); empty for every other
     * event, which structural walks treat as a leaf (a truncated-Poisson event included).
     */
    public static Optional<List<DpEvent>> parts(DpEvent e) {
        if (e instanceof PoissonSampledEvent p) {
            return Optional.of(List.of(p.event()));
        }
        if (e instanceof SelfComposedEvent s) {
            return Optional.of(List.of(s.event()));
        }
        if (e instanceof ComposedEvent c) {
            return Optional.of(c.events());
        }
        if (e instanceof ParallelComposedEvent p) {
            return Optional.of(p.events());
        }
        return Optional.empty();
    }

    /**
     * How many noisy releases an event makes: its leaf mechanisms counted with the multiplicity of
     * every self-composition around them (the parts of a sequential or parallel composition add up; a
     * Poisson-sampled event is one release per repetition; no-ops count zero). Saturates at
     * {@link Long#MAX_VALUE}.
     */
    public static long releases(DpEvent e) {
        Checks.notNull("event", e);
        if (e instanceof NoOpEvent) {
            return 0;
        }
        Optional<List<DpEvent>> inner = parts(e);
        if (inner.isEmpty()) {
            return 1;
        }
        long sum = 0;
        for (DpEvent part : inner.get()) {
            long r = releases(part);
            sum = sum > Long.MAX_VALUE - r ? Long.MAX_VALUE : sum + r;
        }
        if (e instanceof SelfComposedEvent s) {
            return sum != 0 && s.count() > Long.MAX_VALUE / sum ? Long.MAX_VALUE : sum * s.count();
        }
        return sum;
    }

    /** "name[d₁, d₂, …]" with the components' descriptions. */
    static String describeAll(String name, List<DpEvent> events) {
        return name + "[" + events.stream().map(DpEvent::describe).collect(Collectors.joining(", ")) + "]";
    }

    /**
     * The canonical form of an event: composition flattened, no-ops dropped, nested self-composition
     * multiplied out, and equal consecutive events merged into one {@link SelfComposedEvent}. The
     * result is {@link NoOpEvent}, a single (possibly self-composed) event, or a {@link ComposedEvent}
     * of such. Two events with the same normal form are accounted identically.
     */
    public static DpEvent normalize(DpEvent e) {
        List<DpEvent> leaves = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        flatten(e, 1, leaves, counts);
        List<DpEvent> out = new ArrayList<>();
        DpEvent cur = null;
        long c = 0;
        for (int k = 0; k < leaves.size(); k++) {
            DpEvent l = leaves.get(k);
            long m = counts.get(k);
            if (cur != null && cur.equals(l)) {
                c = addCounts(c, m);
            } else {
                if (cur != null) {
                    out.add(c == 1 ? cur : new SelfComposedEvent(cur, c));
                }
                cur = l;
                c = m;
            }
        }
        if (cur != null) {
            out.add(c == 1 ? cur : new SelfComposedEvent(cur, c));
        }
        if (out.isEmpty()) {
            return NoOpEvent.INSTANCE;
        }
        return out.size() == 1 ? out.get(0) : new ComposedEvent(out);
    }

    /** count × count for compositions; an overflow of long is refused with IllegalArgumentException. */
    static long multiplyCounts(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw org.dpopt.linalg.Checks.fail("total composition count", "at most " + Long.MAX_VALUE, a + " x " + b);
        }
    }

    private static long addCounts(long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw org.dpopt.linalg.Checks.fail("total composition count", "at most " + Long.MAX_VALUE, a + " + " + b);
        }
    }

    private static void flatten(DpEvent e, long mult, List<DpEvent> leaves, List<Long> counts) {
        if (e instanceof NoOpEvent) {
            return;
        }
        if (e instanceof ComposedEvent c) {
            if (mult == 1) {
                for (DpEvent s : c.events()) {
                    flatten(s, 1, leaves, counts);
                }
            } else {
                // repeat the composite body: keep it as one leaf so counts stay small
                DpEvent body = normalize(c);
                if (!(body instanceof NoOpEvent)) {
                    leaves.add(body);
                    counts.add(mult);
                }
            }
            return;
        }
        if (e instanceof SelfComposedEvent s) {
            flatten(s.event(), multiplyCounts(mult, s.count()), leaves, counts);
            return;
        }
        if (e instanceof ParallelComposedEvent par) {
            List<DpEvent> parts = new ArrayList<>();
            for (DpEvent s : par.events()) {
                parts.add(normalize(s));
            }
            leaves.add(new ParallelComposedEvent(parts));
            counts.add(mult);
            return;
        }
        if (e instanceof PoissonSampledEvent p) {
            leaves.add(new PoissonSampledEvent(p.samplingProbability(), normalize(p.event())));
            counts.add(mult);
            return;
        }
        leaves.add(e);
        counts.add(mult);
    }
}
