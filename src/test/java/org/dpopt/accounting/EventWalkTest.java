package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Walks every permitted subclass of {@link DpEvent} and checks that every accountant either supports
 * a sample instance (alone and inside a composition) or refuses it with a reason that names the
 * offending sub-event, consistently between {@code unsupportedReason} and {@code epsilon}/{@code delta}.
 *
 * <p>A new event type without a sample below makes this test fail on purpose: add one to
 * {@link #SAMPLES}.
 */
class EventWalkTest {

    /** One cheap, representative instance per event type. */
    private static final Map<Class<?>, DpEvent> SAMPLES = new LinkedHashMap<>();

    static {
        SAMPLES.put(NoOpEvent.class, NoOpEvent.INSTANCE);
        SAMPLES.put(NonPrivateEvent.class, NonPrivateEvent.INSTANCE);
        SAMPLES.put(GaussianEvent.class, new GaussianEvent(2.0));
        SAMPLES.put(LaplaceEvent.class, new LaplaceEvent(1.5));
        SAMPLES.put(EpsilonDeltaEvent.class, new EpsilonDeltaEvent(0.5, 1e-7));
        SAMPLES.put(PoissonSampledEvent.class, new PoissonSampledEvent(0.05, new GaussianEvent(1.5)));
        SAMPLES.put(ComposedEvent.class, ComposedEvent.of(new GaussianEvent(3.0), new LaplaceEvent(4.0)));
        SAMPLES.put(SelfComposedEvent.class, new SelfComposedEvent(new EpsilonDeltaEvent(0.1, 0), 20));
        SAMPLES.put(ParallelComposedEvent.class,
                ParallelComposedEvent.of(new GaussianEvent(2.0), new GaussianEvent(5.0)));
        SAMPLES.put(AblqStepEvent.class, new SelfComposedEvent(
                new AblqStepEvent(AblqStepEvent.BatchOrder.DYNAMIC_SHUFFLE, 1.5, 10), 20));
        SAMPLES.put(TruncatedPoissonEvent.class, new SelfComposedEvent(
                new TruncatedPoissonEvent(0.01, 10_000, 200, new GaussianEvent(1.5)), 100));
    }

    private static List<PrivacyAccountant> accountants() {
        List<PrivacyAccountant> out = new ArrayList<>();
        for (NeighboringRelation r : NeighboringRelation.values()) {
            out.add(new RdpAccountant(RdpAccountant.DEFAULT_ORDERS, RdpAccountant.Conversion.IMPROVED, r));
            out.add(new PldAccountant(1e-3, r));
            out.add(new BasicCompositionAccountant(r));
            if (r != NeighboringRelation.REPLACE_ONE) {
                out.add(new AblqAccountant(r, new RdpAccountant(), true));
            }
        }
        return out;
    }

    @Test
    void everyPermittedEventTypeHasASample() {
        List<String> missing = new ArrayList<>();
        for (Class<?> c : DpEvent.class.getPermittedSubclasses()) {
            if (!SAMPLES.containsKey(c)) {
                missing.add("add a sample instance for " + c.getSimpleName() + " to EventWalkTest.SAMPLES");
            }
        }
        assertTrue(missing.isEmpty(), String.join("\n", missing));
    }

    @Test
    void everyAccountantSupportsOrExplainsEverySample() {
        int supported = 0;
        int refused = 0;
        for (Class<?> c : DpEvent.class.getPermittedSubclasses()) {
            DpEvent sample = SAMPLES.get(c);
            assertNotNull(sample, "add a sample instance for " + c.getSimpleName() + " to EventWalkTest.SAMPLES");
            for (PrivacyAccountant acc : accountants()) {
                for (DpEvent e : List.of(sample, ComposedEvent.of(new GaussianEvent(4.0), sample))) {
                    if (checkOne(acc, e, sample)) {
                        supported++;
                    } else {
                        refused++;
                    }
                }
            }
        }
        assertTrue(supported > 0 && refused > 0, supported + " supported, " + refused + " refused");
    }

    /** True if supported; asserts consistency either way. */
    private static boolean checkOne(PrivacyAccountant acc, DpEvent e, DpEvent sample) {
        String where = acc.name() + "/" + acc.relation() + " on " + e.describe();
        Optional<String> reason = acc.unsupportedReason(e);
        if (reason.isEmpty()) {
            double eps = acc.epsilon(e, 1e-5);
            double delta = acc.delta(e, 1.0);
            assertTrue(eps >= 0, where + ": eps " + eps);
            assertTrue(delta >= 0 && delta <= 1, where + ": delta " + delta);
            PrivacyReport r = acc.report(e, 1e-5);
            assertEquals(eps, r.epsilon(), 1e-12 * Math.max(1, eps), where);
            assertEquals(acc.name(), r.accountant());
            return true;
        }
        assertFalse(reason.get().isBlank(), where);
        try {
            acc.epsilon(e, 1e-5);
            fail(where + ": unsupportedReason says '" + reason.get() + "' but epsilon() succeeded");
        } catch (UnsupportedEventException ex) {
            assertNotNull(ex.event(), where);
            assertTrue(ex.getMessage().contains(ex.event().describe()), where + ": message must name the sub-event");
            assertTrue(contains(e, ex.event()), where + ": named event " + ex.event().describe() + " is not a sub-event");
            assertTrue(reason.get().contains(ex.event().describe()) || contains(sample, ex.event()), where);
        }
        return false;
    }

    private static boolean contains(DpEvent e, DpEvent sub) {
        if (e.equals(sub)) {
            return true;
        }
        if (e instanceof ComposedEvent c) {
            return c.events().stream().anyMatch(x -> contains(x, sub));
        }
        if (e instanceof ParallelComposedEvent p) {
            return p.events().stream().anyMatch(x -> contains(x, sub));
        }
        if (e instanceof SelfComposedEvent s) {
            return contains(s.event(), sub);
        }
        if (e instanceof PoissonSampledEvent p) {
            return contains(p.event(), sub);
        }
        // event types added later: their description includes their components'
        return e.describe().contains(sub.describe());
    }
}
