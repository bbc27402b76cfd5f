package org.dpopt.sampling;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.dpopt.linalg.Checks;

/**
 * A data-independent order of the n records, for algorithms that cut the data into consecutive
 * disjoint parts (parallel composition under replace-one: a record influences only the releases of
 * its own part). Every order is a function of n, the block size and the RNG only, never of the data,
 * so any of them gives the same privacy; they differ in statistics and speed.
 *
 * <p>Block orders keep runs of adjacent rows together: a pass in such an order streams memory within
 * a block, while a row-level permutation costs a cache (and TLB) miss per row. For i.i.d. records the
 * order is immaterial; block mixing still breaks up a sorted file at the scale of a block.
 */
public enum RecordOrder {
    /** A uniformly random permutation; visiting rows in this order is random memory access. */
    SHUFFLE,
    /** {@link #blockShuffle} with blocks of {@link #BLOCK} adjacent rows. */
    BLOCK_SHUFFLE,
    /** The dataset's own order. */
    GIVEN;

    /** Rows per block for {@link #BLOCK_SHUFFLE}. */
    public static final int BLOCK = 16;

    /** Largest block {@link #blockFor} chooses. */
    public static final int MAX_AUTO_BLOCK = 64;

    /** The permutation of 0..n−1 (n ≥ 1). */
    public int[] permutation(int n, UniformRandomProvider rng) {
        Checks.atLeastOne("n", n);
        Checks.notNull("rng", rng);
        switch (this) {
            case SHUFFLE:
                return blockShuffle(n, 1, rng);
            case BLOCK_SHUFFLE:
                return blockShuffle(n, BLOCK, rng);
            default:
                return PermutationSampler.natural(n);
        }
    }

    /**
     * The rows 0..n−1 in blocks of {@code block} consecutive rows (the last block may be shorter), the
     * blocks in a uniformly random order (Fisher–Yates over the blocks, Commons RNG) and the rows of a
     * block in storage order. block = 1 is a uniformly random permutation of the rows.
     */
    public static int[] blockShuffle(int n, int block, UniformRandomProvider rng) {
        Checks.atLeastOne("n", n);
        Checks.atLeastOne("block", block);
        Checks.notNull("rng", rng);
        int count = (int) ((n + (long) block - 1) / block);
        int[] blocks = PermutationSampler.natural(count);
        PermutationSampler.shuffle(rng, blocks);
        int[] order = new int[n];
        int pos = 0;
        for (int b : blocks) {
            int start = b * block;
            int end = Math.min(n, start + block);
            for (int i = start; i < end; i++) {
                order[pos++] = i;
            }
        }
        return order;
    }

    /**
     * A block size for batches of {@code batchSize} consecutive reads: min({@link #MAX_AUTO_BLOCK},
     * max(1, b/4)) rows, so that every batch spans at least four blocks (a function of public sizes only).
     */
    public static int blockFor(int batchSize) {
        Checks.atLeastOne("batchSize", batchSize);
        return Math.max(1, Math.min(MAX_AUTO_BLOCK, batchSize / 4));
    }
}
