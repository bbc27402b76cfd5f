package org.dpopt.sampling;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.dpopt.linalg.Checks;

/**
 * A data-independent order of the n records, for algorithms that cut the data into consecutive
 * disjoint parts (parallel composition under replace-one: a replaced record changes exactly one part).
 * Every order is a function of n and the RNG only; the shuffles are Commons RNG's
 * {@link PermutationSampler#shuffle(UniformRandomProvider, int[])} (Fisher–Yates).
 */
public enum RecordOrder {
    /** A uniformly random permutation; visiting rows in this order is random memory access. */
    SHUFFLE,
    /**
     * A uniformly random permutation of blocks of {@link #BLOCK} adjacent rows: rows of a block stay
     * adjacent, so a pass streams memory. For i.i.d. records the order is immaterial; block mixing still
     * breaks up a sorted file at the scale of a block.
     */
    BLOCK_SHUFFLE,
    /** The dataset's own order. */
    GIVEN;

    /** Rows per block for {@link #BLOCK_SHUFFLE}. */
    public static final int BLOCK = 16;

    /** The permutation of 0..n−1 (n ≥ 1). */
    public int[] permutation(int n, UniformRandomProvider rng) {
        Checks.atLeastOne("n", n);
        Checks.notNull("rng", rng);
        if (this == BLOCK_SHUFFLE) {
            int blocks = (n + BLOCK - 1) / BLOCK;
            int[] bp = PermutationSampler.natural(blocks);
            PermutationSampler.shuffle(rng, bp);
            int[] perm = new int[n];
            int k = 0;
            for (int b : bp) {
                for (int i = b * BLOCK; i < Math.min(n, (b + 1) * BLOCK); i++) {
                    perm[k++] = i;
                }
            }
            return perm;
        }
        int[] perm = PermutationSampler.natural(n);
        if (this == SHUFFLE) {
            PermutationSampler.shuffle(rng, perm);
        }
        return perm;
    }
}
