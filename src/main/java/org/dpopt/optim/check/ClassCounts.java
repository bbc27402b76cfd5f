package org.dpopt.optim.check;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * The counting queries of the constant check, wherever the training rows live: how many rows a linear
 * classifier w labels correctly (it predicts the positive class where ⟨w, x⟩ &gt; 0, as a model file
 * does) and how many rows have a positive label (y &gt; 0). Both are data-dependent, non-private values:
 * each changes by at most one when one row is added or removed, and only their noisy arg-max is released.
 */
public interface ClassCounts {

    /** The number of rows. */
    long rows();

    /** The number of rows with a positive label. */
    long positives();

    /** The number of rows whose label w predicts correctly. Not modified: w. */
    long correct(DMatrixRMaj w);

    /** The counts of rows held in memory (with the intercept's column, if any, as the problem has it). */
    static ClassCounts of(Dataset data) {
        Checks.notNull("data", data);
        return new ClassCounts() {
            @Override
            public long rows() {
                return data.size();
            }

            @Override
            public long positives() {
                long p = 0;
                for (int i = 0; i < data.size(); i++) {
                    p += data.label(i) > 0 ? 1 : 0;
                }
                return p;
            }

            @Override
            public long correct(DMatrixRMaj w) {
                long c = 0;
                for (int i = 0; i < data.size(); i++) {
                    c += (data.dot(i, w) > 0) == (data.label(i) > 0) ? 1 : 0;
                }
                return c;
            }
        };
    }
}
