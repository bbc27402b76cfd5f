package org.dpopt.spark;

import java.io.Serializable;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * The rows of one partition, packed: records {@code firstId, firstId+1, …}, all already validated and
 * projected onto the declared ball. The features live only in the block's in-memory {@link Dataset}
 * (the view the shared kernels read), so a cached block holds one copy of its rows, not two; labels are
 * kept beside it. Serialized through {@link Packed} (features row-major and labels), rebuilt on arrival.
 */
final class RowBlock implements Serializable {
    private static final long serialVersionUID = 2L;

    final long firstId;
    final int rows;
    final int d;
    final double bound;
    final double[] y;
    final int projected;
    private final transient Dataset data;

    /** A block from row-major features x (copied into the block's dataset; the caller may drop x). */
    RowBlock(long firstId, int rows, int d, double bound, double[] x, double[] y, int projected) {
        this(firstId, rows, d, bound, rows == 0 ? null : Dataset.of(DMatrixRMaj.wrap(rows, d, x), y, bound), y,
                projected);
    }

    private RowBlock(long firstId, int rows, int d, double bound, Dataset data, double[] y, int projected) {
        this.firstId = firstId;
        this.rows = rows;
        this.d = d;
        this.bound = bound;
        this.data = data;
        this.y = y;
        this.projected = projected;
    }

    /** A block holding the rows of data as records firstId, firstId + 1, … (data is used, not copied). */
    static RowBlock of(long firstId, Dataset data, int projected) {
        return new RowBlock(firstId, data.size(), data.dimension(), data.rowNormBound(), data, data.labels(),
                projected);
    }

    /** The rows as a dataset (row a is record firstId + a). */
    Dataset dataset() {
        if (data == null) {
            throw Checks.fail("number of rows", "at least 1", 0);
        }
        return data;
    }

    /** Row a's features (a copy). */
    double[] row(int a) {
        double[] r = new double[d];
        data.copyRow(a, r, 0);
        return r;
    }

    /** Copies row a's features into out[offset, offset + d). */
    void copyRow(int a, double[] out, int offset) {
        data.copyRow(a, out, offset);
    }

    private Object writeReplace() {
        return new Packed(firstId, rows, d, bound, data == null ? new double[0] : data.features().data, y, projected);
    }

    /** The serialized form: features row-major and labels. */
    private record Packed(long firstId, int rows, int d, double bound, double[] x, double[] y, int projected)
            implements Serializable {
        private Object readResolve() {
            return new RowBlock(firstId, rows, d, bound, x, y, projected);
        }
    }
}
