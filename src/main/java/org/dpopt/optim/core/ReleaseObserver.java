package org.dpopt.optim.core;

import org.dpopt.accounting.DpEvent;
import org.ejml.data.DMatrixRMaj;

/**
 * Sees every noisy release of a run as it is made — the intermediate quantities a privacy proof
 * covers (each noisy batch sum of DP-SGD, each selected vertex of Frank–Wolfe). For empirical privacy
 * audits and teaching; observing releases is post-processing, so it costs no privacy, but it must not
 * change the run. Called on the run's thread; values must not be modified or kept (copy them).
 */
public interface ReleaseObserver {

    /** Nothing observed. */
    ReleaseObserver NONE = new ReleaseObserver() {
    };

    /** A Gaussian release after its noise was added. Not modified: value. */
    default void gaussian(DMatrixRMaj value, double sensitivity, DpEvent event) {
    }

    /** A report-noisy-max selection. */
    default void selection(int index, DpEvent event) {
    }

    /**
     * A part of a parallel composition over disjoint parts of the data starts: the releases until the
     * next call (or the end of the composition) belong to part {@code index} (0, 1, … within the
     * composition). Lets an auditor attribute each release to the part holding its canary.
     */
    default void part(int index) {
    }
}
