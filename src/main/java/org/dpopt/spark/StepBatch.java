package org.dpopt.spark;

import java.io.Serializable;
import org.dpopt.data.Dataset;
import org.ejml.data.DMatrixRMaj;

/**
 * One step's kept members after truncation, in increasing id order, with their rows: what a DP-SGD step
 * reads. Padding slots are not stored (weight 0 adds nothing to the sum).
 *
 * @param step the step t
 * @param ids the kept members' record ids, increasing
 * @param d the number of features
 * @param bound the declared row-norm bound R
 * @param x the members' features, row-major (ids.length rows of d)
 * @param y the members' labels
 */
record StepBatch(long step, long[] ids, int d, double bound, double[] x, double[] y) implements Serializable {

    /** The members' rows as a dataset for the shared kernel (row a is record ids[a]); built per call. */
    Dataset dataset() {
        return Dataset.of(DMatrixRMaj.wrap(ids.length, d, x), y, bound);
    }
}
