package org.dpopt.spark;

import org.apache.spark.api.java.JavaRDD;

/**
 * A stored plan whose batches live in one RDD it persisted itself: the plan is stored in that RDD's
 * partitions, and releasing the plan unpersists it.
 */
abstract class CachedPlan implements StoredPlan {
    private final JavaRDD<?> cache;

    /** @param cache the RDD the plan persisted (released by {@link #unpersist()}) */
    CachedPlan(JavaRDD<?> cache) {
        this.cache = cache;
    }

    @Override
    public final int partitions() {
        return cache.getNumPartitions();
    }

    @Override
    public void unpersist() {
        cache.unpersist(false);
    }
}
