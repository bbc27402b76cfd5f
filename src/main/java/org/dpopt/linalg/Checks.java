package org.dpopt.linalg;

import org.ejml.data.DMatrixRMaj;

/**
 * Argument validation with one message format: {@code "<name> must be <condition> but was <value>"}.
 *
 * <p>All comparisons are NaN-safe (written as {@code !(x > 0)}), so NaN is always rejected.
 * Every method returns its argument so that checks can be used inline in constructors.
 */
public final class Checks {
    private Checks() {
    }

    /** Builds the house-style message. */
    public static String message(String name, String condition, Object value) {
        return name + " must be " + condition + " but was " + value;
    }

    /** Throws {@link IllegalArgumentException} with the house-style message. */
    public static IllegalArgumentException fail(String name, String condition, Object value) {
        return new IllegalArgumentException(message(name, condition, value));
    }

    /** Requires {@code x > 0} and finite. */
    public static double positive(String name, double x) {
        if (!(x > 0) || Double.isInfinite(x)) {
            throw fail(name, "positive and finite", x);
        }
        return x;
    }

    /** Requires {@code x > 0}; +∞ allowed. */
    public static double positiveOrInfinite(String name, double x) {
        if (!(x > 0)) {
            throw fail(name, "positive", x);
        }
        return x;
    }

    /** Requires {@code x ≥ 0} and finite. */
    public static double nonNegative(String name, double x) {
        if (!(x >= 0) || Double.isInfinite(x)) {
            throw fail(name, "non-negative and finite", x);
        }
        return x;
    }

    /** Requires x finite. */
    public static double finite(String name, double x) {
        if (!Double.isFinite(x)) {
            throw fail(name, "finite", x);
        }
        return x;
    }

    /** Requires {@code 0 < x < 1}. */
    public static double openUnit(String name, double x) {
        if (!(x > 0 && x < 1)) {
            throw fail(name, "in (0, 1)", x);
        }
        return x;
    }

    /** Requires {@code 0 < x ≤ 1}. */
    public static double probability(String name, double x) {
        if (!(x > 0 && x <= 1)) {
            throw fail(name, "in (0, 1]", x);
        }
        return x;
    }

    /** Requires {@code lo ≤ x ≤ hi}. */
    public static double inRange(String name, double x, double lo, double hi) {
        if (!(x >= lo && x <= hi)) {
            throw fail(name, "in [" + lo + ", " + hi + "]", x);
        }
        return x;
    }

    /** Requires {@code x ≥ 1}. */
    public static int atLeastOne(String name, int x) {
        if (x < 1) {
            throw fail(name, "at least 1", x);
        }
        return x;
    }

    /** Requires {@code x ≥ 1}. */
    public static long atLeastOne(String name, long x) {
        if (x < 1) {
            throw fail(name, "at least 1", x);
        }
        return x;
    }

    /** Requires {@code x ≥ min}. */
    public static int atLeast(String name, int x, int min) {
        if (x < min) {
            throw fail(name, "at least " + min, x);
        }
        return x;
    }

    /** Requires a non-null reference. */
    public static <T> T notNull(String name, T x) {
        if (x == null) {
            throw fail(name, "non-null", "null");
        }
        return x;
    }

    /**
     * Requires every reference to be non-null, checked in the given order (so the first null one is
     * the one reported): {@code allNotNull("loss", loss, "domain", domain)} is two {@link #notNull} calls.
     *
     * @param namesAndValues alternating names (strings) and the references they name
     */
    public static void allNotNull(Object... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalStateException("allNotNull takes name/value pairs, got " + namesAndValues.length
                    + " arguments");
        }
        for (int i = 0; i < namesAndValues.length; i += 2) {
            notNull((String) namesAndValues[i], namesAndValues[i + 1]);
        }
    }

    /** Requires a d×1 column vector. */
    public static DMatrixRMaj vector(String name, DMatrixRMaj v, int d) {
        notNull(name, v);
        if (v.numCols != 1 || v.numRows != d) {
            throw fail(name, "a " + d + "x1 vector", v.numRows + "x" + v.numCols);
        }
        return v;
    }

    /** Requires every entry of a vector to be finite. */
    public static DMatrixRMaj finiteVector(String name, DMatrixRMaj v) {
        notNull(name, v);
        for (int i = 0; i < v.getNumElements(); i++) {
            if (!Double.isFinite(v.data[i])) {
                throw fail(name + "[" + i + "]", "finite", v.data[i]);
            }
        }
        return v;
    }

    /** Requires a privacy ε: positive and finite. */
    public static double epsilon(String name, double eps) {
        return positive(name, eps);
    }

    /** Requires a privacy δ in (0, 1). */
    public static double delta(String name, double delta) {
        return openUnit(name, delta);
    }
}
