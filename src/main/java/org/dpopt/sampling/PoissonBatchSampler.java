package org.dpopt.sampling;

import org.dpopt.linalg.Checks;

/**
 * What Poisson and truncated Poisson sampling have in common: a fixed step count T, each batch drawn
 * with inclusion probability q = b/n, and the public expected size b as the normalizer.
 */
sealed interface PoissonBatchSampler extends BatchSampler permits PoissonSampler, TruncatedPoissonSampler {

    /** b. */
    double expectedBatchSize();

    /** T. */
    long steps();

    @Override
    default long steps(int n) {
        return steps();
    }

    @Override
    default double normalizer(int n) {
        return expectedBatchSize();
    }

    @Override
    default boolean requiresExactSize() {
        return false;
    }

    /** q = b/n, refusing n &lt; 1 and b &gt; n. */
    static double inclusionProbability(double expectedBatchSize, int n) {
        Checks.atLeastOne("n", n);
        if (expectedBatchSize > n) {
            throw Checks.fail("expectedBatchSize", "at most the dataset size " + n, expectedBatchSize);
        }
        return expectedBatchSize / n;
    }
}
