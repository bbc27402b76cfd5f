package org.dpopt.optim;

import java.util.EnumMap;
import org.dpopt.linalg.Checks;

/**
 * Immutable non-private diagnostics keyed by {@link Diagnostic} (see there: not covered by the
 * privacy report). Empty unless the optimizer was asked for them.
 */
public final class Diagnostics extends KeyedValues<Diagnostic, Double> {
    private static final Diagnostics NONE = new Diagnostics(new EnumMap<>(Diagnostic.class));

    private Diagnostics(EnumMap<Diagnostic, Double> values) {
        super(values, Diagnostic::key);
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
        Double v = value(k);
        return v == null ? Double.NaN : v;
    }

    /** Non-finite values appear as null. */
    @Override
    Object exported(Double v) {
        return Double.isFinite(v) ? v : null;
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

        /** Sets every value of another set of diagnostics (replacing those with the same key). */
        public Builder putAll(Diagnostics other) {
            values.putAll(Checks.notNull("diagnostics", other).entries());
            return this;
        }

        /** The immutable diagnostics. */
        public Diagnostics build() {
            return values.isEmpty() ? NONE : new Diagnostics(new EnumMap<>(values));
        }
    }
}
