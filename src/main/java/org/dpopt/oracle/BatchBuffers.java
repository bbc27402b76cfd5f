package org.dpopt.oracle;

import org.dpopt.linalg.Checks;

/**
 * Reusable buffers of the memory-ordered batch kernels, allocated once per run: for a chunk of a batch,
 * the slot numbers and row numbers of its contributing records, their labels and precomputed row norms
 * (read ahead, independent loads), and their dots.
 */
public final class BatchBuffers {
    /** Rows per chunk: the rows of a chunk (64 × 800 bytes at d = 100) stay in the second-level cache. */
    public static final int CHUNK = 64;

    final int[] slots;
    final int[] rows;
    final double[] labels;
    final double[] norms;
    final double[] dots;

    private BatchBuffers(int chunk) {
        slots = new int[chunk];
        rows = new int[chunk];
        labels = new double[chunk];
        norms = new double[chunk];
        dots = new double[chunk];
    }

    /** Buffers for batches of at most maxSlots slots (chunks of min(maxSlots, {@value #CHUNK}) rows). */
    public static BatchBuffers of(int maxSlots) {
        Checks.positive("maxSlots", maxSlots);
        return new BatchBuffers(Math.min(CHUNK, maxSlots));
    }

    /** The number of rows per chunk. */
    public int chunk() {
        return rows.length;
    }
}
