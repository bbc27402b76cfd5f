package org.dpopt.spark;

import java.io.Serializable;
import org.dpopt.data.Dataset;
import org.ejml.data.DMatrixRMaj;

/**
 * One step's kept members after truncation, in increasing id order, with their rows: what a DP-SGD step
 * reads. Padding slots are not stored (weight 0 adds nothing to the sum). The in-memory view for the
 * shared kernel is built once per JVM holding the batch.
 */
final class StepBatch implements Serializable {
    private static final long serialVersionUID = 1L;

    final long step;
    final long[] ids;
    final int d;
    final double bound;
    final double[] x;
    final double[] y;
    private transient Dataset view;

    StepBatch(long step, long[] ids, int d, double bound, double[] x, double[] y) {
        this.step = step;
        this.ids = ids;
        this.d = d;
        this.bound = bound;
        this.x = x;
        this.y = y;
    }

    /** The members' rows as a dataset (row a is record ids[a]). */
    Dataset dataset() {
        if (view == null) {
            view = Dataset.of(DMatrixRMaj.wrap(ids.length, d, x), y, bound);
        }
        return view;
    }
}
