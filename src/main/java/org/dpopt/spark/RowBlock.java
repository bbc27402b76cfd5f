package org.dpopt.spark;

import java.io.Serializable;
import org.dpopt.data.Dataset;
import org.ejml.data.DMatrixRMaj;

/**
 * The rows of one partition, packed: records {@code firstId, firstId+1, …} with features row-major in
 * {@code x} and labels in {@code y}, all already validated and projected onto the declared ball. The
 * in-memory {@link Dataset} view (for the shared kernels) is built once per JVM that holds the block.
 */
final class RowBlock implements Serializable {
    private static final long serialVersionUID = 1L;

    final long firstId;
    final int rows;
    final int d;
    final double bound;
    final double[] x;
    final double[] y;
    final int projected;
    private transient Dataset view;

    RowBlock(long firstId, int rows, int d, double bound, double[] x, double[] y, int projected) {
        this.firstId = firstId;
        this.rows = rows;
        this.d = d;
        this.bound = bound;
        this.x = x;
        this.y = y;
        this.projected = projected;
    }

    /** The rows as a dataset (row a is record firstId + a). */
    Dataset dataset() {
        if (view == null) {
            view = Dataset.of(DMatrixRMaj.wrap(rows, d, x), y, bound);
        }
        return view;
    }

    /** Row a's features (a copy). */
    double[] row(int a) {
        double[] r = new double[d];
        System.arraycopy(x, a * d, r, 0, d);
        return r;
    }
}
