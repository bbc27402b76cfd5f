package org.dpopt.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

/** The Map → group-by-batch → truncate/pad construction has the law of the direct samplers. */
class BatchPlanTest {

    @Test
    void untruncatedPlanHasPoissonBatchSizesInclusionsAndIndependence() {
        // n = 50, q = 0.2, T = 20000, B = n (no truncation). Per-record counts ~ Bin(20000, 0.2)
        // (sd 56.6, 6 sd, union over 50: false failure 1e-7); mean batch size within 6 sd of 10;
        // variance 8 within 0.6 (> 7 sd); record 0 in batches t and t+1 ~ Bin(19999, 0.04): sd 27.7,
        // 6 sd (false failure 2e-9).
        int n = 50;
        int t = 20000;
        List<BatchPlan.Batch> batches = new BatchPlan(n, 0.2, t, n, 17).materialize();
        assertEquals(t, batches.size());
        long[] counts = new long[n];
        double sum = 0;
        double sq = 0;
        boolean[] zeroIn = new boolean[t];
        for (BatchPlan.Batch b : batches) {
            int real = 0;
            for (int a = 0; a < n; a++) {
                if (b.weights()[a] == 1) {
                    counts[b.rows()[a]]++;
                    real++;
                    if (b.rows()[a] == 0) {
                        zeroIn[(int) b.index()] = true;
                    }
                }
            }
            sum += real;
            sq += (double) real * real;
        }
        for (int i = 0; i < n; i++) {
            assertEquals(4000, counts[i], 6 * 56.6);
        }
        double mean = sum / t;
        assertEquals(10, mean, 0.12);
        assertEquals(8, sq / t - mean * mean, 0.6);
        int both = 0;
        for (int k = 0; k + 1 < t; k++) {
            if (zeroIn[k] && zeroIn[k + 1]) {
                both++;
            }
        }
        assertEquals(19999 * 0.04, both, 6 * 27.7);
    }

    @Test
    void truncatedPlanMatchesTruncatedPoissonSizeLawAndPadsToB() {
        // Real-batch size = min(K, 12), K ~ Bin(50, 0.2): each size within 6 binomial sd over 20000
        // batches (13 sizes: false failure < 3e-8).
        int n = 50;
        int bigB = 12;
        int t = 20000;
        long[] sizes = new long[bigB + 1];
        for (BatchPlan.Batch b : new BatchPlan(n, 0.2, t, bigB, 3).materialize()) {
            assertEquals(bigB, b.rows().length);
            assertEquals(bigB, b.weights().length);
            int real = 0;
            while (real < bigB && b.weights()[real] == 1) {
                real++;
            }
            for (int a = real; a < bigB; a++) {
                assertEquals(0.0, b.weights()[a]);
            }
            sizes[real]++;
        }
        BinomialDistribution bin = new BinomialDistribution(null, n, 0.2);
        for (int k = 0; k <= bigB; k++) {
            double p = k < bigB ? bin.probability(k) : 1 - bin.cumulativeProbability(bigB - 1);
            assertEquals(t * p, sizes[k], 6 * Math.sqrt(t * p * (1 - p)) + 1e-9, "size " + k);
        }
    }

    @Test
    void stagesArePureFunctionsOfSeedAndKey() {
        BatchPlan a = new BatchPlan(100, 0.1, 50, 8, 99);
        BatchPlan b = new BatchPlan(100, 0.1, 50, 8, 99);
        boolean anyDiff = false;
        for (int i = 0; i < 100; i++) {
            assertArrayEquals(a.batchesOf(i), b.batchesOf(i));
            long[] m = a.batchesOf(i);
            for (int k = 1; k < m.length; k++) {
                assertTrue(m[k] > m[k - 1], "distinct sorted batch indices");
            }
            anyDiff |= !java.util.Arrays.equals(m, new BatchPlan(100, 0.1, 50, 8, 100).batchesOf(i));
        }
        assertTrue(anyDiff);
        int[] members = {1, 4, 9, 16, 25, 36, 49, 64, 81, 90};
        BatchPlan.Batch x = a.truncateAndPad(7, members);
        assertArrayEquals(x.rows(), b.truncateAndPad(7, members).rows());
        assertEquals(8, x.rows().length);
        assertFalse(java.util.Arrays.equals(x.rows(), a.truncateAndPad(8, members).rows())
                && java.util.Arrays.equals(x.rows(), a.truncateAndPad(9, members).rows()));
        List<BatchPlan.Batch> m1 = a.materialize();
        List<BatchPlan.Batch> m2 = b.materialize();
        for (int k = 0; k < 50; k++) {
            assertArrayEquals(m1.get(k).rows(), m2.get(k).rows());
        }
    }

    @Test
    void binomialAndFloydHelpersHaveTheRightLaw() {
        // k ~ Bin(40, 0.05): mean 2, variance 1.9; 20000 draws, 6 sd tolerance.
        var r = org.dpopt.noise.Rngs.seeded(5);
        double s = 0;
        double s2 = 0;
        long[] firstHits = new long[40];
        for (int it = 0; it < 20000; it++) {
            int k = BatchPlan.binomial(r, 40, 0.05);
            s += k;
            s2 += (double) k * k;
            long[] d = BatchPlan.distinctSorted(r, 40, 3);
            assertEquals(3, d.length);
            firstHits[(int) d[0]]++;
        }
        double mean = s / 20000;
        assertEquals(2, mean, 6 * Math.sqrt(1.9 / 20000));
        assertEquals(1.9, s2 / 20000 - mean * mean, 0.15);
        // P(min of 3 distinct from 40 = 0) = 3/40
        assertEquals(20000 * 3 / 40.0, firstHits[0], 6 * Math.sqrt(20000 * 0.075 * 0.925));
    }

    @Test
    void refusesBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> new BatchPlan(0, 0.1, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new BatchPlan(10, 0, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new BatchPlan(10, 0.1, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new BatchPlan(10, 0.1, 1, 0, 1));
        BatchPlan p = new BatchPlan(10, 0.1, 5, 3, 1);
        assertThrows(IllegalArgumentException.class, () -> p.batchesOf(10));
        assertThrows(IllegalArgumentException.class, () -> p.truncateAndPad(5, new int[0]));
    }
}
