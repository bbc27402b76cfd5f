package org.dpopt.optim.mirror;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;

/**
 * Copies of the outer iterate w_t at m evenly spaced rounds t ∈ {1..T_out}, for the non-private
 * estimate of E_{t*}[near-stationarity]. It never touches the rng, so it cannot change the release.
 */
final class Trajectory {
    private final DMatrixRMaj[] points;
    private final int rounds;
    private int next;

    /** m points over T_out rounds (m = 0: none). */
    Trajectory(int m, int rounds) {
        this.points = new DMatrixRMaj[m];
        this.rounds = rounds;
    }

    /** The k-th of m evenly spaced rounds in {1..T}: 1 + ⌊(k + ½)·T/m⌋ (stratified sample of t*). */
    static int round(int k, int m, int rounds) {
        return 1 + (int) Math.floor((k + 0.5) * rounds / m);
    }

    /** Keeps a copy of w_t if t is the next sampled round. Not modified: w. */
    void offer(int t, DMatrixRMaj w) {
        if (next < points.length && round(next, points.length, rounds) == t) {
            points[next++] = w.copy();
        }
    }

    int size() {
        return next;
    }

    DMatrixRMaj[] points() {
        return Arrays.copyOf(points, next);
    }
}
