package org.dpopt.oracle;

import org.dpopt.linalg.Checks;

/**
 * Reusable buffers of the memory-ordered batch kernels, allocated once per run: room for a chunk of
 * rows copied side by side, and for the chunk's dots and slot numbers.
 *
 * @param dots 2·chunk entries: the chunk's dots, then its slot numbers
 * @param rows chunk·d entries: the chunk's rows, contiguous
 */
public record BatchBuffers(double[] dots, double[] rows) {
    /** Rows per chunk: 64 rows of d = 100 are 51 KB, resident in the second-level cache. */
    public static final int CHUNK = 64;

    /** Validates. */
    public BatchBuffers {
        Checks.notNull("dots", dots);
        Checks.notNull("rows", rows);
    }

    /** Buffers for rows of d features and batches of at most maxSlots slots. */
    public static BatchBuffers of(int d, int maxSlots) {
        Checks.positive("d", d);
        int chunk = Math.max(1, Math.min(CHUNK, maxSlots));
        return new BatchBuffers(new double[2 * chunk], new double[chunk * d]);
    }
}
