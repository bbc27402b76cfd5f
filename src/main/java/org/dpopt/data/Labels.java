package org.dpopt.data;

import java.util.Arrays;
import java.util.TreeSet;
import org.dpopt.linalg.Checks;

/**
 * Label checks for classification: a binary loss reads labels in {0, 1} or in {−1, +1} (one encoding
 * per dataset), a k-class loss reads the integers 0..k−1. Anything else — a label 2 given to a binary
 * loss, a mixture of 0, 1 and −1, a fraction — is refused rather than silently read as "y &gt; 0 is
 * positive".
 *
 * <p>The class set is a <em>public</em> declaration, like the dimension: a model that lists its k
 * classes reveals which labels it was trained for. The checks here validate input; they do not make
 * a data-derived class set private (callers that derive k from the labels say so in the report).
 */
public final class Labels {
    private Labels() {
    }

    /** The binary encodings. */
    public enum BinaryEncoding {
        /** Labels 0 and 1. */
        ZERO_ONE,
        /** Labels −1 and +1. */
        PLUS_MINUS_ONE;

        /** The label of the negative class (0 or −1). */
        public double negative() {
            return this == ZERO_ONE ? 0 : -1;
        }

        /** The label of the positive class (1 in both encodings). */
        public double positive() {
            return 1;
        }
    }

    /**
     * The binary encoding of the labels: all in {0, 1} or all in {−1, +1} (a dataset of only 1s is
     * read as {0, 1}).
     *
     * @param source how the data is named in a message (e.g. {@code "--data"})
     * @throws IllegalArgumentException naming the first offending row otherwise
     */
    public static BinaryEncoding binaryEncoding(Dataset data, String source) {
        Checks.notNull("data", data);
        BinaryEncoding enc = null;
        int first = -1;
        for (int i = 0; i < data.size(); i++) {
            double y = data.label(i);
            BinaryEncoding e = y == 0 ? BinaryEncoding.ZERO_ONE : y == -1 ? BinaryEncoding.PLUS_MINUS_ONE
                    : y == 1 ? null : fail(data, source, i);
            if (e != null && enc != null && e != enc) {
                throw Checks.fail("label of row " + i + " of " + source, "in the encoding of row " + first + " ("
                        + label(data.label(first)) + "): all labels in {0, 1} or all in {-1, +1} for a binary loss",
                        label(y));
            }
            if (e != null && enc == null) {
                enc = e;
                first = i;
            }
        }
        return enc == null ? BinaryEncoding.ZERO_ONE : enc;
    }

    private static BinaryEncoding fail(Dataset data, String source, int i) {
        throw Checks.fail("label of row " + i + " of " + source, "0 or 1 (or -1 or +1) for a binary loss; use the "
                + "multinomial loss (labels 0..k-1) for more classes", label(data.label(i)));
    }

    /** True if every label is in {0, 1}, or every label is in {−1, +1}. */
    public static boolean isBinaryEncoded(Dataset data) {
        Checks.notNull("data", data);
        boolean zero = false;
        boolean minus = false;
        for (int i = 0; i < data.size(); i++) {
            double v = data.label(i);
            zero |= v == 0;
            minus |= v == -1;
            if (!(v == 0 || v == 1 || v == -1) || (zero && minus)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Refuses a label that is not one of the integers 0..k−1.
     *
     * @param k the declared number of classes, k ≥ 2
     */
    public static void requireClasses(Dataset data, int k, String source) {
        Checks.notNull("data", data);
        Checks.atLeast("number of classes", k, 2);
        for (int i = 0; i < data.size(); i++) {
            double y = data.label(i);
            if (!(y >= 0 && y < k && y == Math.rint(y))) {
                throw Checks.fail("label of row " + i + " of " + source, "an integer in 0.." + (k - 1) + " for a "
                        + k + "-class model", label(y));
            }
        }
    }

    /**
     * Refuses training data whose labels are all equal: no classifier can be fitted, and "predict the
     * only class" needs no training.
     */
    public static void requireTwoClasses(Dataset data, String source) {
        Checks.notNull("data", data);
        double y0 = data.label(0);
        for (int i = 1; i < data.size(); i++) {
            if (data.label(i) != y0) {
                return;
            }
        }
        throw Checks.fail("labels of " + source, "at least two different classes for a classifier",
                "only " + label(y0) + " in " + data.size() + " rows");
    }

    /** The distinct label values, ascending. */
    public static double[] distinct(Dataset data) {
        TreeSet<Double> s = new TreeSet<>();
        for (int i = 0; i < data.size(); i++) {
            s.add(data.label(i));
        }
        return s.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * The number of classes k the labels imply for a k-class model: 1 + the largest label, after
     * checking that every label is an integer in 0..k−1. (k derived from the labels is then treated as
     * public.)
     */
    public static int impliedClassCount(Dataset data, String source) {
        double[] v = distinct(data);
        double max = v[v.length - 1];
        if (!(v[0] >= 0 && max == Math.rint(max) && max < Integer.MAX_VALUE)) {
            throw Checks.fail("labels of " + source, "integers 0..k-1 for a multi-class model",
                    Arrays.toString(Arrays.copyOf(v, Math.min(v.length, 5))));
        }
        int k = (int) max + 1;
        requireClasses(data, Math.max(k, 2), source);
        return k;
    }

    /** A label as written in a file: integers without ".0". */
    static String label(double y) {
        return y == Math.rint(y) && Math.abs(y) < 1e15 ? Long.toString((long) y) : Double.toString(y);
    }
}
