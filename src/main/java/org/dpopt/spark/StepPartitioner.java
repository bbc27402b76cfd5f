package org.dpopt.spark;

import org.apache.spark.Partitioner;

/** Steps 0..T−1 in P contiguous ranges: step t goes to partition ⌊t·P/T⌋, so a step's batch is in one partition. */
final class StepPartitioner extends Partitioner {
    private static final long serialVersionUID = 1L;

    private final long steps;
    private final int parts;

    StepPartitioner(long steps, int parts) {
        this.steps = steps;
        this.parts = parts;
    }

    /** T steps in P = min(T, requested) ranges, at least one. */
    static StepPartitioner atMost(long steps, int requested) {
        return new StepPartitioner(steps, (int) Math.max(1, Math.min(steps, requested)));
    }

    @Override
    public int numPartitions() {
        return parts;
    }

    @Override
    public int getPartition(Object key) {
        return partitionOf((Long) key);
    }

    /** ⌊t·P/T⌋ (exact while T·P &lt; 2⁶³; otherwise in floating point, clamped: still a function of t). */
    int partitionOf(long step) {
        if (steps <= Long.MAX_VALUE / parts) {
            return (int) (step * parts / steps);
        }
        return (int) Math.min(parts - 1, (long) ((double) step * parts / steps));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StepPartitioner p && p.steps == steps && p.parts == parts;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(steps) * 31 + parts;
    }
}
