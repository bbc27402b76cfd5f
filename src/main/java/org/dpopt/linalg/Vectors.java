package org.dpopt.linalg;

import org.ejml.data.DMatrixRMaj;

/**
 * Dimension-checked operations on d×1 EJML vectors. Unlike EJML's {@code innerProd}, every binary
 * operation checks that lengths agree. Methods that produce a vector write into a caller-supplied
 * {@code out} (allocation-free), and document which arguments are modified.
 */
public final class Vectors {
    private Vectors() {
    }

    /** A new zero vector of length d. */
    public static DMatrixRMaj zeros(int d) {
        Checks.atLeastOne("d", d);
        return new DMatrixRMaj(d, 1);
    }

    /** A new column vector holding a copy of {@code values}. */
    public static DMatrixRMaj of(double... values) {
        DMatrixRMaj v = new DMatrixRMaj(values.length, 1);
        System.arraycopy(values, 0, v.data, 0, values.length);
        return v;
    }

    /** Length of a column vector; rejects non-vectors. */
    public static int length(DMatrixRMaj v) {
        if (v.numCols != 1) {
            throw Checks.fail("vector", "a column vector (d x 1)", v.numRows + "x" + v.numCols);
        }
        return v.numRows;
    }

    private static void sameLength(DMatrixRMaj a, DMatrixRMaj b) {
        if (a.numRows != b.numRows || a.numCols != 1 || b.numCols != 1) {
            throw new IllegalArgumentException("vectors must have equal length but were "
                    + a.numRows + "x" + a.numCols + " and " + b.numRows + "x" + b.numCols);
        }
    }

    /** ⟨a, b⟩. Not modified: a, b. */
    public static double dot(DMatrixRMaj a, DMatrixRMaj b) {
        sameLength(a, b);
        double s = 0;
        double[] x = a.data;
        double[] y = b.data;
        for (int i = 0; i < a.numRows; i++) {
            s += x[i] * y[i];
        }
        return s;
    }

    /** y = y + α x. Modified: y. Not modified: x. */
    public static void axpy(double alpha, DMatrixRMaj x, DMatrixRMaj y) {
        sameLength(x, y);
        double[] xs = x.data;
        double[] ys = y.data;
        for (int i = 0; i < x.numRows; i++) {
            ys[i] += alpha * xs[i];
        }
    }

    /** v = α v. Modified: v. */
    public static void scale(double alpha, DMatrixRMaj v) {
        double[] xs = v.data;
        for (int i = 0; i < v.numRows; i++) {
            xs[i] *= alpha;
        }
    }

    /** out = src. Modified: out. */
    public static void copy(DMatrixRMaj src, DMatrixRMaj out) {
        sameLength(src, out);
        System.arraycopy(src.data, 0, out.data, 0, src.numRows);
    }

    /** v = 0. Modified: v. */
    public static void zero(DMatrixRMaj v) {
        java.util.Arrays.fill(v.data, 0, v.getNumElements(), 0.0);
    }

    /** ‖v‖₂. */
    public static double norm2(DMatrixRMaj v) {
        double s = 0;
        double[] xs = v.data;
        for (int i = 0; i < v.numRows; i++) {
            s += xs[i] * xs[i];
        }
        return Math.sqrt(s);
    }

    /** ‖a − b‖₂. */
    public static double distance2(DMatrixRMaj a, DMatrixRMaj b) {
        sameLength(a, b);
        double s = 0;
        for (int i = 0; i < a.numRows; i++) {
            double t = a.data[i] - b.data[i];
            s += t * t;
        }
        return Math.sqrt(s);
    }

    /**
     * Clips v to ℓ2 norm at most c: {@code v ← v · min(1, c/‖v‖)}. A zero vector is left unchanged
     * (no division by zero, no magic epsilon). Modified: v.
     *
     * @return the scale factor applied
     */
    public static double clipL2(DMatrixRMaj v, double c) {
        double n = norm2(v);
        if (n > c) {
            double s = c / n;
            scale(s, v);
            return s;
        }
        return 1.0;
    }
}
