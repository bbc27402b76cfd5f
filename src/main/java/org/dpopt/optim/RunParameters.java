package org.dpopt.optim;

import java.util.EnumMap;
import org.dpopt.linalg.Checks;

/**
 * An immutable set of planned, public run parameters, keyed by {@link Param}. Values are checked
 * against the key's {@link Param.Kind}: finite doubles, longs, booleans or strings — never NaN or ∞
 * (a quantity that is infinite, such as the smoothness of a non-smooth loss, is simply absent).
 */
public final class RunParameters extends KeyedValues<Param, Object> {
    private static final RunParameters EMPTY = new RunParameters(new EnumMap<>(Param.class));

    private RunParameters(EnumMap<Param, Object> values) {
        super(values, Param::key);
    }

    /** No parameters. */
    public static RunParameters empty() {
        return EMPTY;
    }

    /** A builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** The value of a key, or null if absent. */
    public Object get(Param p) {
        return value(p);
    }

    /** A real-valued (or integer-valued) key as a double; NaN if absent. */
    public double real(Param p) {
        return value(p) instanceof Number x ? x.doubleValue() : Double.NaN;
    }

    /** A builder starting from these values. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.values.putAll(entries());
        return b;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RunParameters r && r.entries().equals(entries());
    }

    @Override
    public int hashCode() {
        return entries().hashCode();
    }

    /** Builder; each put validates the value against its key's kind. */
    public static final class Builder {
        private final EnumMap<Param, Object> values = new EnumMap<>(Param.class);

        private Builder() {
        }

        /** A real value (must be finite; use {@link #putIfFinite} for possibly infinite quantities). */
        public Builder put(Param p, double v) {
            if (p.kind() == Param.Kind.INTEGER) {
                if (!(v == Math.rint(v)) || Math.abs(v) > 0x1p53) {
                    throw Checks.fail(p.key(), "a whole number", v);
                }
                values.put(p, (long) v);
                return this;
            }
            requireKind(p, Param.Kind.REAL);
            values.put(p, Checks.finite(p.key(), v));
            return this;
        }

        /** A real value if finite; nothing otherwise. */
        public Builder putIfFinite(Param p, double v) {
            return Double.isFinite(v) ? put(p, v) : this;
        }

        /** An integer value. */
        public Builder put(Param p, long v) {
            if (p.kind() == Param.Kind.REAL) {
                values.put(p, (double) v);
                return this;
            }
            requireKind(p, Param.Kind.INTEGER);
            values.put(p, v);
            return this;
        }

        /** A boolean value. */
        public Builder put(Param p, boolean v) {
            requireKind(p, Param.Kind.BOOLEAN);
            values.put(p, v);
            return this;
        }

        /** A text value. */
        public Builder put(Param p, String v) {
            requireKind(p, Param.Kind.TEXT);
            values.put(p, Checks.notNull(p.key(), v));
            return this;
        }

        private static void requireKind(Param p, Param.Kind k) {
            if (p.kind() != k) {
                throw Checks.fail("value of " + p.key(), "of kind " + p.kind(), k);
            }
        }

        /** The immutable parameters. */
        public RunParameters build() {
            return new RunParameters(new EnumMap<>(values));
        }
    }
}
