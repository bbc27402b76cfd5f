package org.dpopt.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpopt.accounting.AblqStepEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.noise.Rngs;
import org.junit.jupiter.api.Test;

/** Deterministic, persistent-shuffle and dynamic-shuffle samplers (Chua et al. 2024, Algorithm 3). */
class FixedPartitionSamplersTest {

    /** The T batches of one iterator, as a T×b array. */
    static int[][] batches(BatchSampler s, int n, long seed) {
        int t = (int) s.steps(n);
        int[][] out = new int[t][];
        int[] idx = new int[s.maxBatchSlots(n)];
        double[] w = new double[idx.length];
        BatchSampler.BatchIterator it = s.iterator(n, Rngs.seeded(seed));
        for (int k = 0; k < t; k++) {
            int m = it.next(idx, w);
            for (int a = 0; a < m; a++) {
                assertEquals(1.0, w[a]);
            }
            out[k] = Arrays.copyOf(idx, m);
        }
        return out;
    }

    /** Records of epoch e concatenated in batch order. */
    static int[] epochOrder(int[][] b, int s, int e) {
        int[] o = new int[0];
        for (int t = e * s; t < (e + 1) * s; t++) {
            int[] c = Arrays.copyOf(o, o.length + b[t].length);
            System.arraycopy(b[t], 0, c, o.length, b[t].length);
            o = c;
        }
        return o;
    }

    static void assertPermutation(int[] order, int n) {
        int[] sorted = order.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < n; i++) {
            assertEquals(i, sorted[i]);
        }
    }

    @Test
    void deterministicBatchesAreConsecutiveBlocksEveryEpoch() {
        BatchSampler s = FixedSizeBatchSampler.deterministic(4, 3);
        int[][] b = batches(s, 12, 1);
        assertEquals(9, b.length);
        assertEquals(9, s.steps(12));
        assertEquals(4.0, s.normalizer(12));
        for (int t = 0; t < 9; t++) {
            int start = (t % 3) * 4;
            assertArrayEquals(new int[] {start, start + 1, start + 2, start + 3}, b[t]);
        }
    }

    @Test
    void persistentShuffleReusesOnePermutationAndIsSeedDeterministic() {
        BatchSampler s = FixedSizeBatchSampler.persistentShuffle(5, 4);
        int[][] b = batches(s, 100, 7);
        int[] first = epochOrder(b, 20, 0);
        assertPermutation(first, 100);
        for (int e = 1; e < 4; e++) {
            assertArrayEquals(first, epochOrder(b, 20, e));
        }
        assertArrayEquals(first, epochOrder(batches(s, 100, 7), 20, 0));
        // a different seed gives a different permutation (equal with probability 1/100!)
        assertFalse(Arrays.equals(first, epochOrder(batches(s, 100, 8), 20, 0)));
    }

    @Test
    void dynamicShuffleDrawsAFreshPermutationEachEpoch() {
        BatchSampler s = FixedSizeBatchSampler.dynamicShuffle(5, 4);
        int[][] b = batches(s, 100, 7);
        int[][] orders = new int[4][];
        for (int e = 0; e < 4; e++) {
            orders[e] = epochOrder(b, 20, e);
            assertPermutation(orders[e], 100);
        }
        // consecutive epochs equal with probability 1/100! each
        for (int e = 1; e < 4; e++) {
            assertFalse(Arrays.equals(orders[e - 1], orders[e]));
        }
        for (int e = 0; e < 4; e++) {
            assertArrayEquals(orders[e], epochOrder(batches(s, 100, 7), 20, e));
        }
    }

    @Test
    void batchOfARecordIsUniformUnderBothShuffles() {
        // n = 20, b = 5, S = 4: record 0 lies in batch 0 with probability 1/4.
        // Dynamic: 4000 epochs of one run. Persistent: 4000 runs (one per seed); within a run its
        // batch never changes. Counts ~ Bin(4000, 1/4): sd 27.4, tolerance 5 sd, false failure < 1e-6.
        int epochs = 4000;
        int[][] dyn = batches(FixedSizeBatchSampler.dynamicShuffle(5, epochs), 20, 11);
        int hits = 0;
        for (int e = 0; e < epochs; e++) {
            if (contains(dyn[e * 4], 0)) {
                hits++;
            }
        }
        assertEquals(1000, hits, 5 * 27.4);
        int persistentHits = 0;
        for (int r = 0; r < 4000; r++) {
            int[][] per = batches(FixedSizeBatchSampler.persistentShuffle(5, 2), 20, 1000 + r);
            boolean in = contains(per[0], 0);
            assertEquals(in, contains(per[4], 0));
            if (in) {
                persistentHits++;
            }
        }
        assertEquals(1000, persistentHits, 5 * 27.4);
    }

    private static boolean contains(int[] a, int v) {
        for (int x : a) {
            if (x == v) {
                return true;
            }
        }
        return false;
    }

    @Test
    void statesItsOwnZeroOutEvent() {
        BatchSampler s = FixedSizeBatchSampler.dynamicShuffle(10, 2);
        assertEquals(NeighboringRelation.ZERO_OUT, s.relation());
        assertEquals(new AblqStepEvent(AblqStepEvent.BatchOrder.DYNAMIC_SHUFFLE, 1.5, 10), s.stepEvent(100, 1.5));
        assertEquals(new SelfComposedEvent(s.stepEvent(100, 1.5), 20), s.privacyEvent(100, 1.5));
        assertEquals(DpEvents.normalize(s.privacyEvent(100, 1.5)), s.privacyEvent(100, 1.5));
        assertTrue(FixedSizeBatchSampler.deterministic(10, 1).stepEvent(100, 1).describe().contains("DETERMINISTIC"));
    }

    @Test
    void refusesInvalidTriples() {
        assertThrows(IllegalArgumentException.class, () -> FixedSizeBatchSampler.deterministic(3, 1).steps(10));
        assertThrows(IllegalArgumentException.class, () -> FixedSizeBatchSampler.persistentShuffle(3, 1).iterator(10, Rngs.seeded(1)));
        assertThrows(IllegalArgumentException.class, () -> FixedSizeBatchSampler.dynamicShuffle(3, 1).stepEvent(10, 1));
        assertThrows(IllegalArgumentException.class, () -> FixedSizeBatchSampler.deterministic(20, 1).steps(10));
        assertThrows(IllegalArgumentException.class, () -> FixedSizeBatchSampler.deterministic(0, 1));
        assertThrows(IllegalArgumentException.class, () -> FixedSizeBatchSampler.dynamicShuffle(5, 0));
        assertThrows(IllegalArgumentException.class, () -> Samplers.byName("shuffle-dynamic").create(10, 5, 1.5));
        assertThrows(IllegalArgumentException.class, () -> Samplers.byName("deterministic").create(10, 5, 0));
        assertThrows(IllegalArgumentException.class, () -> Samplers.byName("no-such-sampler"));
        assertEquals(NeighboringRelation.ZERO_OUT, Samplers.byName("shuffle-persistent").relation());
        assertEquals(NeighboringRelation.ADD_OR_REMOVE_ONE, Samplers.byName("poisson").relation());
    }
}
