package org.dpopt.spark;

import java.io.Serializable;

/** One task's part of a step's clipped batch sum, with what it read (non-private counts). */
final class StepSum implements Serializable {
    private static final long serialVersionUID = 1L;

    final double[] sum;
    final int rows;
    final int clipped;
    final int visited;
    final long nanos;

    StepSum(double[] sum, int rows, int clipped, int visited, long nanos) {
        this.sum = sum;
        this.rows = rows;
        this.clipped = clipped;
        this.visited = visited;
        this.nanos = nanos;
    }
}
