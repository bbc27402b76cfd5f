package org.dpopt.sampling;

/** The iterator over a materialized keyed plan: step t's members (increasing) with weight 1, then padding. */
final class MaterializedBatches implements BatchSampler.BatchIterator {
    private final int[][] batches;
    private final int padTo;
    private int t;

    /**
     * @param batches every step's members; each is released after it was read
     * @param padTo the slot count to pad to with index 0 and weight 0 (0: no padding)
     */
    MaterializedBatches(int[][] batches, int padTo) {
        this.batches = batches;
        this.padTo = padTo;
    }

    @Override
    public int next(BatchSlots slots) {
        if (t < batches.length) {
            slots.ensureCapacity(Math.max(batches[t].length, padTo));
        }
        return next(slots.indices(), slots.weights());
    }

    @Override
    public int next(int[] idx, double[] w) {
        if (t >= batches.length) {
            throw new IllegalStateException("all " + batches.length + " planned steps were used");
        }
        int[] b = batches[t];
        batches[t++] = null;
        for (int a = 0; a < b.length; a++) {
            idx[a] = b[a];
            w[a] = 1;
        }
        for (int a = b.length; a < padTo; a++) {
            idx[a] = 0;
            w[a] = 0;
        }
        return Math.max(b.length, padTo);
    }
}
