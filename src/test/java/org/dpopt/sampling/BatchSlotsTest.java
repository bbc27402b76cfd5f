package org.dpopt.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpopt.noise.Rngs;
import org.junit.jupiter.api.Test;

/**
 * Growing slots change nothing but the buffer: every Poisson-type sampler's iterator writes the same
 * records, weights and slot counts into slots that start at one entry (so nearly every batch forces a
 * growth) as into arrays of the sampler's upper bound, with the same seed; truncated Poisson (whose
 * untruncated draw buffer starts at max(B, b + 8√b + 16) and grows) and the fixed-size samplers do the
 * same from their starting capacity. Deterministic (fixed seeds).
 */
class BatchSlotsTest {

    private static void assertSameBatches(BatchSampler sampler, int n, long seed) {
        assertSameBatches(sampler, n, seed, 1);
    }

    private static void assertSameBatches(BatchSampler sampler, int n, long seed, int capacity) {
        BatchSampler.BatchIterator full = sampler.iterator(n, Rngs.seeded(seed));
        BatchSampler.BatchIterator grown = sampler.iterator(n, Rngs.seeded(seed));
        int max = sampler.maxBatchSlots(n);
        int[] idx = new int[max];
        double[] w = new double[max];
        BatchSlots slots = new BatchSlots(capacity);
        long steps = Math.min(sampler.steps(n), 300);
        int largest = 0;
        for (long t = 0; t < steps; t++) {
            int k = full.next(idx, w);
            int k2 = grown.next(slots);
            assertEquals(k, k2, sampler.name() + " step " + t);
            assertArrayEquals(Arrays.copyOf(idx, k), Arrays.copyOf(slots.indices(), k), sampler.name() + " step " + t);
            assertArrayEquals(Arrays.copyOf(w, k), Arrays.copyOf(slots.weights(), k), 0, sampler.name());
            largest = Math.max(largest, k);
        }
        assertTrue(largest > capacity || capacity > 1, sampler.name() + ": some batch must have forced a growth");
    }

    @Test
    void growingSlotsGiveTheSameBatchesAsFullSizeArrays() {
        int n = 2_000;
        assertSameBatches(new PoissonSampler(40, 300), n, 3);
        assertSameBatches(new PoissonSampler(n, 3), n, 4); // q = 1: every record
        TruncatedPoissonSampler truncated = new TruncatedPoissonSampler(40, 45, 300); // truncation active
        assertSameBatches(truncated, n, 5, truncated.initialBatchSlots(n)); // B slots; its draw buffer grows
        assertSameBatches(PlannedPoissonSampler.of(new PoissonSampler(40, 300)), n, 6);
        assertSameBatches(PlannedPoissonSampler.of(new TruncatedPoissonSampler(40, 45, 300)), n, 7);
        // fixed-size batches: the starting capacity is already the bound
        PlannedShuffleSampler shuffle = new PlannedShuffleSampler(40, 2, true);
        assertSameBatches(shuffle, n, 8, shuffle.initialBatchSlots(n));
        FixedSizeBatchSampler fixed = FixedSizeBatchSampler.deterministic(40, 2);
        assertSameBatches(fixed, n, 9, fixed.initialBatchSlots(n));
    }

    @Test
    void poissonStartsNearTheExpectedBatchNotAtN() {
        assertEquals(256 + 128 + 16, new PoissonSampler(256, 10).initialBatchSlots(1_000_000));
        assertEquals(1_000_000, new PoissonSampler(256, 10).maxBatchSlots(1_000_000));
        assertEquals(100, new PoissonSampler(90, 10).initialBatchSlots(100)); // capped at n
        assertEquals(256 + 128 + 16,
                PlannedPoissonSampler.of(new PoissonSampler(256, 10)).initialBatchSlots(1_000_000));
        assertEquals(300, new TruncatedPoissonSampler(256, 300, 10).initialBatchSlots(1_000_000));
        assertEquals(64, FixedSizeBatchSampler.deterministic(64, 1).initialBatchSlots(6_400));
    }

    @Test
    void growthKeepsTheContents() {
        BatchSlots s = new BatchSlots(2);
        s.indices()[1] = 7;
        s.weights()[1] = 0.5;
        s.ensureCapacity(3);
        assertTrue(s.capacity() >= 4, "doubles");
        assertEquals(7, s.indices()[1]);
        assertEquals(0.5, s.weights()[1], 0);
        s.ensureCapacity(1);
        assertTrue(s.capacity() >= 4, "never shrinks");
        assertThrows(IllegalArgumentException.class, () -> new BatchSlots(0));
    }
}
