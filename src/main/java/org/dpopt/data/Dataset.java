package org.dpopt.data;

import java.util.Arrays;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.RowKernels;
import org.ejml.data.DMatrixRMaj;

/**
 * An immutable labelled dataset: an n×d feature matrix, n labels and a <em>declared, public</em>
 * bound R on the ℓ2 norm of every row.
 *
 * <p>The row-norm bound is what privacy rests on (gradient sensitivities are computed from it, never
 * from the data), so construction rejects any row whose norm exceeds it, as well as NaN/∞ entries
 * and mismatched shapes. Labels are read by losses: classification losses treat {@code y > 0} as the
 * positive class (so both 0/1 and −1/+1 encodings work); regression losses use y as a real number.
 *
 * <p>The feature storage is never exposed; the fast kernels {@link #dot}, {@link #addScaledRow} and
 * {@link #rowNorm} give allocation-free access for optimizers.
 */
public final class Dataset {
    private final double[] x; // row-major n*d
    private final double[] y;
    private final double[] rowNorms;
    private final int n;
    private final int d;
    private final double rowNormBound;

    private Dataset(double[] x, double[] y, int n, int d, double rowNormBound, boolean check) {
        this.x = x;
        this.y = y;
        this.n = n;
        this.d = d;
        this.rowNormBound = rowNormBound;
        this.rowNorms = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            int off = i * d;
            for (int j = 0; j < d; j++) {
                double v = x[off + j];
                if (check && !Double.isFinite(v)) {
                    throw Checks.fail("features[" + i + "][" + j + "]", "finite", v);
                }
                s += v * v;
            }
            rowNorms[i] = Math.sqrt(s);
            if (check && !(rowNorms[i] <= rowNormBound)) {
                throw Checks.fail("norm of row " + i, "at most the declared row-norm bound "
                        + rowNormBound, rowNorms[i]);
            }
            if (check && !Double.isFinite(y[i])) {
                throw Checks.fail("labels[" + i + "]", "finite", y[i]);
            }
        }
    }

    /**
     * Creates a dataset from an n×d matrix and n labels. Inputs are copied (not modified).
     *
     * @param features     n×d, all entries finite, n ≥ 1, d ≥ 1
     * @param labels       length n, finite
     * @param rowNormBound declared public bound R &gt; 0 with ‖x_i‖₂ ≤ R for every row
     * @throws IllegalArgumentException on any violation, naming the offending entry
     */
    public static Dataset of(DMatrixRMaj features, double[] labels, double rowNormBound) {
        Checks.notNull("features", features);
        Checks.notNull("labels", labels);
        Checks.positive("rowNormBound", rowNormBound);
        if (features.numRows < 1) {
            throw Checks.fail("number of rows", "at least 1", features.numRows);
        }
        if (features.numCols < 1) {
            throw Checks.fail("number of features", "at least 1", features.numCols);
        }
        if (labels.length != features.numRows) {
            throw Checks.fail("labels.length", "equal to the number of rows " + features.numRows,
                    labels.length);
        }
        double[] xs = Arrays.copyOf(features.data, features.numRows * features.numCols);
        return new Dataset(xs, labels.clone(), features.numRows, features.numCols, rowNormBound, true);
    }

    /**
     * Writes one row of a dataset being generated: row i's features into {@code row} (length d, reused
     * between calls) and its label as the result.
     */
    @FunctionalInterface
    public interface RowSource {
        /** Fills row (length d) with row i's features and returns its label. */
        double next(int i, double[] row);
    }

    /**
     * Creates an n×d dataset row by row from a source, written straight into the dataset's own storage:
     * no n×d temporary, so a dataset of several gigabytes needs its own size and no more. The source is
     * called once per row, for i = 0, 1, …, n − 1 in this order; each row is copied out of the buffer
     * (the source never sees the dataset's storage). Validated as {@link #of(DMatrixRMaj, double[], double)}.
     *
     * @param n number of rows, 1 ≤ n and n·d &lt; 2³¹
     * @param d number of features, d ≥ 1
     * @param rowNormBound declared public bound R &gt; 0 with ‖x_i‖₂ ≤ R for every row
     * @throws IllegalArgumentException on any violation, naming the offending entry
     */
    public static Dataset generate(int n, int d, double rowNormBound, RowSource source) {
        Checks.atLeastOne("number of rows", n);
        Checks.atLeastOne("number of features", d);
        Checks.positive("rowNormBound", rowNormBound);
        Checks.notNull("source", source);
        if ((long) n * d > Integer.MAX_VALUE - 8) {
            throw Checks.fail("number of rows times features", "below 2^31", (long) n * d);
        }
        double[] xs = new double[n * d];
        double[] ys = new double[n];
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            ys[i] = source.next(i, row);
            System.arraycopy(row, 0, xs, i * d, d);
        }
        return new Dataset(xs, ys, n, d, rowNormBound, true);
    }

    /** As {@link #of(DMatrixRMaj, double[], double)} from a row array {@code rows[i][j]}. */
    public static Dataset of(double[][] rows, double[] labels, double rowNormBound) {
        Checks.notNull("rows", rows);
        if (rows.length < 1) {
            throw Checks.fail("number of rows", "at least 1", 0);
        }
        int d = rows[0].length;
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length != d) {
                throw Checks.fail("length of row " + i, "equal to " + d, rows[i].length);
            }
        }
        return of(new DMatrixRMaj(rows), labels, rowNormBound);
    }

    /** Number of rows n. */
    public int size() {
        return n;
    }

    /** Number of features d. */
    public int dimension() {
        return d;
    }

    /** The declared public row-norm bound R. */
    public double rowNormBound() {
        return rowNormBound;
    }

    /** Label of row i. */
    public double label(int i) {
        return y[i];
    }

    /** A copy of the labels. */
    public double[] labels() {
        return y.clone();
    }

    /** Feature j of row i. */
    public double feature(int i, int j) {
        return x[i * d + j];
    }

    /** ‖x_i‖₂ (precomputed; non-private diagnostic use or as a per-example clipping shortcut). */
    public double rowNorm(int i) {
        return rowNorms[i];
    }

    /** ⟨x_i, w⟩. Not modified: w (a d×1 vector). */
    public double dot(int i, DMatrixRMaj w) {
        return dot(i, w.data, 0);
    }

    /**
     * ⟨x_i, w[offset, offset + d)⟩: the score of one block of a multi-output parameter vector (block c of
     * a k-class model starts at c·d). Not modified: w.
     */
    public double dot(int i, double[] ws, int offset) {
        return RowKernels.dot(x, i * d, ws, offset, d);
    }

    /**
     * ⟨x_{rows[k]}, w[offset, offset + d)⟩ into out[k] for k &lt; count (a batch's scores): each the same bits
     * as {@link #dot(int, double[], int)}, computed four rows at a time ({@link RowKernels#dot4}) so that
     * the reads of scattered rows, each a cache miss, overlap instead of waiting for one another.
     * Modified: out. Not modified: rows, w.
     */
    public void dots(int[] rows, int count, double[] w, int offset, double[] out) {
        int k = 0;
        for (; k + 3 < count; k += 4) {
            RowKernels.dot4(x, rows[k] * d, rows[k + 1] * d, rows[k + 2] * d, rows[k + 3] * d, w, offset, d, out, k);
        }
        for (; k < count; k++) {
            out[k] = RowKernels.dot(x, rows[k] * d, w, offset, d);
        }
    }

    /**
     * out[offset + j] += a₀·x_{i₀j}, then a₁·x_{i₁j}, a₂·x_{i₂j}, a₃·x_{i₃j} (a batch's update, four rows at a
     * time): the same bits as four {@link #addScaledRow(int, double, double[], int)} calls in that order,
     * each entry loaded and stored once ({@link RowKernels#axpy4}). Modified: out.
     */
    public void addScaledRows4(int i0, int i1, int i2, int i3, double a0, double a1, double a2, double a3,
            double[] out, int offset) {
        RowKernels.axpy4(a0, a1, a2, a3, x, i0 * d, i1 * d, i2 * d, i3 * d, out, offset, d);
    }

    /**
     * ⟨x_i, w[offset, offset + d)⟩ into out[outOffset + i − from] for the contiguous rows from ≤ i &lt; to:
     * each the same bits as {@link #dot(int, double[], int)}, four rows at a time. Modified: out.
     */
    public void dotsOfRange(int from, int to, double[] w, int offset, double[] out, int outOffset) {
        int i = from;
        for (; i + 3 < to; i += 4) {
            RowKernels.dot4(x, i * d, (i + 1) * d, (i + 2) * d, (i + 3) * d, w, offset, d, out, outOffset + i - from);
        }
        for (; i < to; i++) {
            out[outOffset + i - from] = RowKernels.dot(x, i * d, w, offset, d);
        }
    }

    /**
     * out[offset + j] += a[aOffset + i − from]·x_ij for the rows from ≤ i &lt; to in row order: the same bits
     * as one {@link #addScaledRow(int, double, double[], int)} per row, four rows at a time. Modified: out.
     */
    public void addScaledRange(int from, int to, double[] a, int aOffset, double[] out, int offset) {
        int i = from;
        for (; i + 3 < to; i += 4) {
            int k = aOffset + i - from;
            RowKernels.axpy4(a[k], a[k + 1], a[k + 2], a[k + 3], x, i * d, (i + 1) * d, (i + 2) * d, (i + 3) * d,
                    out, offset, d);
        }
        for (; i < to; i++) {
            RowKernels.axpy(a[aOffset + i - from], x, i * d, out, offset, d);
        }
    }

    /** Copies row i into out[offset, offset + d) (e.g. a block of rows sent elsewhere). Modified: out. */
    public void copyRow(int i, double[] out, int offset) {
        System.arraycopy(x, i * d, out, offset, d);
    }

    /** out = out + a · x_i. Modified: out (d×1). */
    public void addScaledRow(int i, double a, DMatrixRMaj out) {
        addScaledRow(i, a, out.data, 0);
    }

    /** out[offset + j] += a · x_ij for j &lt; d (one block of a multi-output vector). Modified: out. */
    public void addScaledRow(int i, double a, double[] out, int offset) {
        RowKernels.axpy(a, x, i * d, out, offset, d);
    }

    /** Copies row i into out (d×1). Modified: out. */
    public void row(int i, DMatrixRMaj out) {
        System.arraycopy(x, i * d, out.data, 0, d);
    }

    /** A new dataset holding the given rows (in the given order), same declared bound. */
    public Dataset subset(int[] rows) {
        Checks.notNull("rows", rows);
        if (rows.length < 1) {
            throw Checks.fail("number of selected rows", "at least 1", 0);
        }
        double[] xs = new double[rows.length * d];
        double[] ys = new double[rows.length];
        for (int k = 0; k < rows.length; k++) {
            int i = rows[k];
            if (i < 0 || i >= n) {
                throw Checks.fail("row index", "in [0, " + n + ")", i);
            }
            System.arraycopy(x, i * d, xs, k * d, d);
            ys[k] = y[i];
        }
        return new Dataset(xs, ys, rows.length, d, rowNormBound, false);
    }

    /**
     * The dataset with a constant column c appended to every row, x ↦ (x, c): the intercept's
     * coordinate. Its declared row-norm bound is √(R² + c²), rounded up by a few ulps so that the norm
     * recomputed in floating point never exceeds it (the sensitivity bound then still holds exactly).
     *
     * @param c the constant, c &gt; 0 and finite
     */
    public Dataset withConstantColumn(double c) {
        Checks.positive("intercept scale", c);
        Checks.finite("intercept scale", c);
        int d1 = d + 1;
        double[] xs = new double[n * d1];
        for (int i = 0; i < n; i++) {
            System.arraycopy(x, i * d, xs, i * d1, d);
            xs[i * d1 + d] = c;
        }
        return new Dataset(xs, y.clone(), n, d1, augmentedBound(rowNormBound, c), true);
    }

    /** √(R² + c²) plus 8 ulps: a bound on the recomputed norm of (x, c) for every ‖x‖ ≤ R. */
    public static double augmentedBound(double rowNormBound, double c) {
        double b = Math.sqrt(rowNormBound * rowNormBound + c * c);
        return b + 8 * Math.ulp(b);
    }

    /** A copy of the features as an n×d matrix. */
    public DMatrixRMaj features() {
        DMatrixRMaj m = new DMatrixRMaj(n, d);
        System.arraycopy(x, 0, m.data, 0, n * d);
        return m;
    }

    /** True when every label is in {0, 1} or in {−1, +1} (a binary classification dataset). */
    public boolean isBinary() {
        for (double v : y) {
            if (!(v == 0 || v == 1 || v == -1)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "Dataset[n=" + n + ", d=" + d + ", rowNormBound=" + rowNormBound + "]";
    }
}
