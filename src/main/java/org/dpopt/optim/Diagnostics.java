package org.dpopt.optim;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.linalg.Checks;

/**
 * Immutable non-private diagnostics keyed by {@link Diagnostic} (see there: not covered by the
 * privacy report). Empty unless the optimizer was asked for them.
 */
public final class Diagnostics {
    private static final Diagnostics NONE = new Diagnostics(new EnumMap<>(Diagnostic.class));

    private final EnumMap<Diagnostic, Double> values;

    private Diagnostics(EnumMap<Diagnostic, Double> values) {
        this.values = values;
    }

    /** No diagnostics. */
    public static Diagnostics none() {
        return NONE;
    }

    /** A builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** The value, or NaN if absent. */
    public double get(Diagnostic k) {
        Double v = values.get(k);
        return v == null ? Double.NaN : v;
    }

    /** True if present. */
    public boolean has(Diagnostic k) {
        return values.containsKey(k);
    }

    /** True if there are none. */
    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** Ordered snake_case map (non-finite values appear as null). */
    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Map.Entry<Diagnostic, Double> e : values.entrySet()) {
            m.put(e.getKey().key(), Double.isFinite(e.getValue()) ? e.getValue() : null);
        }
        return Collections.unmodifiableMap(m);
    }

    @Override
    public String toString() {
        return asMap().toString();
    }

    /** Builder. */
    public static final class Builder {
        private final EnumMap<Diagnostic, Double> values = new EnumMap<>(Diagnostic.class);

        private Builder() {
        }

        /** Sets a value (NaN/∞ allowed: a diagnostic may be undefined). */
        public Builder put(Diagnostic k, double v) {
            values.put(Checks.notNull("diagnostic", k), v);
            return this;
        }

        /** The immutable diagnostics. */
        public Diagnostics build() {
            return values.isEmpty() ? NONE : new Diagnostics(new EnumMap<>(values));
        }
    }
}
