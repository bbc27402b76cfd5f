package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * No NaN, no crash, no hang, for any finite valid input: every accountant answers every query on
 * extreme events (noise multipliers 1e-300 … 1e6, sampling rates 1e-300 … 1, up to 10¹⁸ steps,
 * ε up to 10⁶ and ∞, δ down to 1e-300) with a number in range — ε ≥ 0 (possibly +∞), δ ∈ [0, 1] — or
 * refuses with an {@link IllegalArgumentException} (including {@link UnsupportedEventException}); and
 * the PLD and RDP upper bounds never fall below the exact closed-form lower bound. Deterministic.
 */
class AccountantExtremesTest {

    private static List<PrivacyAccountant> accountants() {
        return List.of(new PldAccountant(), new RdpAccountant(),
                new AblqAccountant(NeighboringRelation.ADD_OR_REMOVE_ONE, new RdpAccountant(), true),
                new BasicCompositionAccountant(NeighboringRelation.ADD_OR_REMOVE_ONE),
                new AdvancedCompositionAccountant(NeighboringRelation.ADD_OR_REMOVE_ONE));
    }

    private static List<DpEvent> events(boolean all) {
        List<DpEvent> e = new ArrayList<>();
        double[] zs = all ? new double[] {1e-300, 1e-4, 0.01, 1, 1e6} : new double[] {1e-300, 0.01, 1, 1e6};
        double[] qs = all ? new double[] {1e-300, 1e-9, 0.5, 1} : new double[] {1e-300, 0.5, 1};
        long[] ts = all ? new long[] {1, 1_000_000_000L, 1_000_000_000_000_000_000L}
                : new long[] {1, 1_000_000_000_000_000_000L};
        for (double z : zs) {
            e.add(new GaussianEvent(z));
            for (double q : qs) {
                for (long t : ts) {
                    if (z <= 1e-4 && q >= 0.5 && t > 1) {
                        continue; // covered by the t = 1 and small-q rows; each costs RDP's whole order grid only
                    }
                    e.add(new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(z)), t));
                }
            }
        }
        for (double b : new double[] {1e-6, 1, 1e6}) {
            e.add(new LaplaceEvent(b));
            e.add(new SelfComposedEvent(new LaplaceEvent(b), 1_000_000_000_000_000_000L));
        }
        e.add(new EpsilonDeltaEvent(1e6, 0));
        e.add(new SelfComposedEvent(new EpsilonDeltaEvent(1e-9, 1e-300), 1_000_000_000_000_000_000L));
        e.add(ComposedEvent.of(new GaussianEvent(0.5), new LaplaceEvent(2), new EpsilonDeltaEvent(0.1, 1e-9)));
        e.add(NonPrivateEvent.INSTANCE);
        e.add(NoOpEvent.INSTANCE);
        return e;
    }

    @Test
    void everyQueryAnswersInRangeOrRefuses() {
        check(events(false));
    }

    @Test
    @org.junit.jupiter.api.Tag("slow")
    void everyQueryOnTheFullGridAnswersInRangeOrRefuses() {
        check(events(true));
    }

    private static void check(List<DpEvent> events) {
        double[] deltas = {1e-300, 1e-12, 0.5, 1 - 1e-16};
        double[] epsilons = {0, 1e-9, 1, 1e6, Double.POSITIVE_INFINITY};
        List<String> failures = new ArrayList<>();
        for (PrivacyAccountant acc : accountants()) {
            for (DpEvent ev : events) {
                if (acc.unsupportedReason(ev).isPresent()) {
                    continue;
                }
                for (double d : deltas) {
                    String id = acc.name() + " " + ev.describe() + " delta=" + d;
                    Double v = run(id, () -> acc.epsilon(ev, d));
                    if (v != null && !(v >= 0)) {
                        failures.add(id + ": epsilon " + v);
                    }
                    if (v != null && (acc instanceof PldAccountant || acc instanceof RdpAccountant)) {
                        double low = LowerBounds.epsilon(DpEvents.normalize(ev), d, false);
                        if (low > v * (1 + 1e-9) + 1e-12) {
                            failures.add(id + ": epsilon " + v + " below the certified lower bound " + low);
                        }
                    }
                }
                for (double e : epsilons) {
                    String id = acc.name() + " " + ev.describe() + " epsilon=" + e;
                    Double v = run(id, () -> acc.delta(ev, e));
                    if (v != null && !(v >= 0 && v <= 1)) {
                        failures.add(id + ": delta " + v);
                    }
                }
                Double r = run(acc.name() + " report " + ev.describe(), () -> acc.report(ev, 1e-5).epsilon());
                if (r != null && !(r >= 0)) {
                    failures.add(acc.name() + " report " + ev.describe() + ": " + r);
                }
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " failures:\n" + String.join("\n", failures));
    }

    /** The value, or null for a refusal (IllegalArgumentException); anything else fails; 60 s at most. */
    private static Double run(String id, java.util.function.DoubleSupplier query) {
        return assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try {
                return query.getAsDouble();
            } catch (IllegalArgumentException refused) {
                assertTrue(refused.getMessage() != null && refused.getMessage().contains(" must "),
                        id + ": refusal without a house-style message: " + refused.getMessage());
                return null;
            }
        }, id);
    }
}
