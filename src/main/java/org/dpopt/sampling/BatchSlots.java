package org.dpopt.sampling;

import java.util.Arrays;
import org.dpopt.linalg.Checks;

/**
 * The reusable index and weight arrays a batch is written into, sized from public quantities and grown
 * (doubling, contents kept) on the rare batch that does not fit. A Poisson batch of expected size b
 * has more than b + 8√b + 16 records with probability below e^{-32} ≈ 1.3e-14 per step (Chernoff's
 * bound Pr[X ≥ b + t] ≤ exp(−t²/(2(b + t/3))) for a sum of independent indicators of mean b), so a run
 * typically allocates these arrays once; the sizes are buffer sizes only and never change which records are drawn or in
 * which order.
 */
public final class BatchSlots {
    private int[] indices;
    private double[] weights;

    /** Room for capacity slots (at least one). */
    public BatchSlots(int capacity) {
        Checks.atLeastOne("capacity", capacity);
        this.indices = new int[capacity];
        this.weights = new double[capacity];
    }

    /** The index array (its length is {@link #capacity()}); replaced by a growth. */
    public int[] indices() {
        return indices;
    }

    /** The weight array (its length is {@link #capacity()}); replaced by a growth. */
    public double[] weights() {
        return weights;
    }

    /** The number of slots the arrays hold. */
    public int capacity() {
        return indices.length;
    }

    /** Makes room for at least slots entries, keeping the current contents. */
    public void ensureCapacity(int slots) {
        if (slots > indices.length) {
            int grown = (int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) slots, 2L * indices.length));
            indices = Arrays.copyOf(indices, grown);
            weights = Arrays.copyOf(weights, grown);
        }
    }

    /**
     * The public starting capacity for Poisson batches of expected size b over n records:
     * min(n, ⌈b + 8√b⌉ + 16). Depends on the configuration only, never on the data.
     */
    public static int poissonCapacity(double expectedBatchSize, int n) {
        Checks.atLeastOne("n", n);
        Checks.positive("expectedBatchSize", expectedBatchSize);
        double slots = Math.ceil(expectedBatchSize + 8 * Math.sqrt(expectedBatchSize)) + 16;
        return (int) Math.max(1, Math.min(n, slots));
    }
}
