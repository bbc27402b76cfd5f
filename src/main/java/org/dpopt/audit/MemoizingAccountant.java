package org.dpopt.audit;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.ForwardingAccountant;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.linalg.Checks;

/**
 * An accountant that remembers its answers. Accountants are pure functions of (event, δ) or
 * (event, ε), so caching changes no result; it matters for audits, which repeat one plan thousands of
 * times and whose every run reports the same ledger (a PLD report of a Poisson-sampled ledger takes
 * ~0.1 s). The name and relation are the wrapped accountant's, so reports are unchanged.
 */
public final class MemoizingAccountant extends ForwardingAccountant {
    private final Map<Key, Double> epsilons = new ConcurrentHashMap<>();
    private final Map<Key, Double> deltas = new ConcurrentHashMap<>();
    private final Map<Key, PrivacyReport> reports = new ConcurrentHashMap<>();

    private record Key(DpEvent event, double value) {
    }

    private MemoizingAccountant(PrivacyAccountant inner) {
        super(inner);
    }

    /** Wraps an accountant (a memoizing one is returned as is). */
    public static MemoizingAccountant of(PrivacyAccountant a) {
        Checks.notNull("accountant", a);
        return a instanceof MemoizingAccountant m ? m : new MemoizingAccountant(a);
    }

    @Override
    public double epsilon(DpEvent event, double delta) {
        return remembered(epsilons, event, delta, () -> inner().epsilon(event, delta));
    }

    @Override
    public double delta(DpEvent event, double epsilon) {
        return remembered(deltas, event, epsilon, () -> inner().delta(event, epsilon));
    }

    @Override
    public PrivacyReport report(DpEvent event, double delta) {
        return remembered(reports, event, delta, () -> inner().report(event, delta));
    }

    /** The cached answer for (event, value), computed once (not under a lock: a race computes it twice). */
    private static <T> T remembered(Map<Key, T> cache, DpEvent event, double value, Supplier<T> compute) {
        Key k = new Key(Checks.notNull("event", event), value);
        T v = cache.get(k);
        if (v == null) {
            v = compute.get();
            cache.put(k, v);
        }
        return v;
    }

    @Override
    public String toString() {
        return "Memoizing(" + inner().name() + ")";
    }
}
