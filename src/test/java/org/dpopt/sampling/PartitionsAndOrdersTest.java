package org.dpopt.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.noise.Rngs;
import org.junit.jupiter.api.Test;

/** Record orders, independent-label partitions and Poisson batches over a sub-range. */
class PartitionsAndOrdersTest {

    @Test
    void orderIsAPermutationDependingOnlyOnNAndTheRng() {
        for (RecordOrder o : RecordOrder.values()) {
            for (int n : new int[] {2, 17, 1000}) {
                int[] a = o.permutation(n, Rngs.seeded(3));
                int[] b = o.permutation(n, Rngs.seeded(3));
                assertArrayEquals(a, b);
                int[] sorted = a.clone();
                Arrays.sort(sorted);
                for (int i = 0; i < n; i++) {
                    assertEquals(i, sorted[i]);
                }
                if (o == RecordOrder.GIVEN) {
                    assertEquals(0, a[0]);
                    assertEquals(n - 1, a[n - 1]);
                }
                if (o == RecordOrder.BLOCK_SHUFFLE) {
                    // blocks of 16 adjacent rows stay together
                    for (int i = 0; i + 1 < n; i++) {
                        if (a[i] % RecordOrder.BLOCK != RecordOrder.BLOCK - 1 && a[i] != n - 1) {
                            assertEquals(a[i] + 1, a[i + 1]);
                        }
                    }
                }
            }
            if (o != RecordOrder.GIVEN) {
                assertFalse(Arrays.equals(o.permutation(1000, Rngs.seeded(3)), o.permutation(1000, Rngs.seeded(4))));
            }
        }
    }

    /** The shuffle is the textbook one (i = n−1..1, swap with nextInt(i+1)): seeded orders are stable. */
    @Test
    void shuffleIsFisherYatesFromTheTop() {
        int n = 50;
        UniformRandomProvider rng = Rngs.seeded(11);
        int[] expected = new int[n];
        for (int i = 0; i < n; i++) {
            expected[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = expected[i];
            expected[i] = expected[j];
            expected[j] = t;
        }
        assertArrayEquals(expected, RecordOrder.SHUFFLE.permutation(n, Rngs.seeded(11)));
    }

    @Test
    void independentLabelsAreADisjointCoverWithUniformSizes() {
        int n = 100_000;
        int parts = 10;
        int[][] p = Partitions.independentLabels(n, parts, Rngs.seeded(5));
        boolean[] seen = new boolean[n];
        int total = 0;
        for (int[] part : p) {
            for (int a = 0; a < part.length; a++) {
                assertFalse(seen[part[a]]);
                seen[part[a]] = true;
                total++;
                if (a > 0) {
                    assertTrue(part[a] > part[a - 1], "parts list their records in increasing order");
                }
            }
            // |part| ~ Bin(1e5, 0.1): mean 1e4, sd 94.9; a 6-sd band per part (false failure < 1e-8)
            assertTrue(Math.abs(part.length - 10_000) < 6 * 94.9, "part size " + part.length);
        }
        assertEquals(n, total);
        // one nextInt(parts) per record, in index order: the labels are reproducible from the stream
        UniformRandomProvider rng = Rngs.seeded(5);
        int[] next = new int[parts];
        for (int i = 0; i < 1000; i++) {
            int label = rng.nextInt(parts);
            assertEquals(i, p[label][next[label]++]);
        }
        assertThrows(IllegalArgumentException.class, () -> Partitions.independentLabels(0, 2, Rngs.seeded(1)));
        assertThrows(IllegalArgumentException.class, () -> Partitions.independentLabels(5, 0, Rngs.seeded(1)));
    }

    /**
     * Poisson batches over a part: the same skips as the full-range sampler (so both draw the same
     * positions from the same stream), mapped through the part, and inclusion frequencies q.
     */
    @Test
    void poissonOverASubRange() {
        int[] part = {4, 9, 10, 17, 23, 40, 41, 42};
        int n = part.length;
        double q = 0.25;
        BatchSampler.BatchIterator sub = PoissonSampler.over(part, n, q, Rngs.seeded(8));
        BatchSampler.BatchIterator full = new PoissonSampler(q * n, 1).iterator(n, Rngs.seeded(8));
        int[] a = new int[n];
        int[] b = new int[n];
        double[] w = new double[n];
        long[] counts = new long[n];
        int steps = 40_000;
        for (int t = 0; t < steps; t++) {
            int ka = sub.next(a, w);
            int kb = full.next(b, w);
            assertEquals(kb, ka);
            for (int i = 0; i < ka; i++) {
                assertEquals(part[b[i]], a[i]);
                assertEquals(1.0, w[i], 0.0);
                counts[b[i]]++;
            }
        }
        // each count ~ Bin(4e4, 0.25): mean 1e4, sd 86.6; 6-sd band per position (false failure < 2e-8)
        for (long c : counts) {
            assertTrue(Math.abs(c - 10_000) < 6 * 86.6, "count " + c);
        }
        int k = PoissonSampler.over(part, 3, 1.0, Rngs.seeded(1)).next(a, w);
        assertEquals(3, k);
        assertArrayEquals(new int[] {4, 9, 10}, Arrays.copyOf(a, 3));
        assertThrows(IllegalArgumentException.class, () -> PoissonSampler.over(part, 9, 0.5, Rngs.seeded(1)));
        assertThrows(IllegalArgumentException.class, () -> PoissonSampler.over(part, 3, 0, Rngs.seeded(1)));
        assertThrows(IllegalArgumentException.class, () -> PoissonSampler.over(part, 3, 1.5, Rngs.seeded(1)));
    }
}
