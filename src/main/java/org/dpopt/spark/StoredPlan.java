package org.dpopt.spark;

import java.util.List;
import java.util.Map;

/** A batch plan cached on the executors: how a step's clipped sum is computed where its rows are. */
interface StoredPlan {

    /** T. */
    long steps();

    /**
     * The partial sums of step t at w (one per task that took part, in partition order), computed with the
     * shared kernel on the step's kept members only.
     */
    List<StepSum> sum(long step, double[] w, double clip, LossCodec loss, int d);

    /** Every step's kept member ids, increasing (collected: tests and small plans only). */
    Map<Long, long[]> members();

    /** The number of partitions the plan is stored in. */
    int partitions();

    /** Releases the cache. */
    void unpersist();
}
