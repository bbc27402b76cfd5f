package org.dpopt.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.distribution.BinomialDistribution;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.TruncatedPoissonEvent;
import org.dpopt.noise.Rngs;
import org.junit.jupiter.api.Test;

/** Poisson and truncated Poisson samplers: inclusion frequencies, batch sizes, padding invariants. */
class PoissonSamplersTest {

    @Test
    void poissonInclusionFrequenciesAndBatchSizes() {
        // n = 50, q = 0.2, T = 20000: each record's count ~ Bin(20000, 0.2), sd 56.6; tolerance 6 sd
        // (per-record false failure 2e-9, union over 50 records 1e-7). Mean batch size: sd of the
        // mean 2.83/sqrt(20000) = 0.02, tolerance 0.12 (6 sd).
        int n = 50;
        int t = 20000;
        PoissonSampler s = new PoissonSampler(10, t);
        int[] idx = new int[n];
        double[] w = new double[n];
        long[] counts = new long[n];
        double sizeSum = 0;
        double sizeSq = 0;
        BatchSampler.BatchIterator it = s.iterator(n, Rngs.seeded(3));
        for (int k = 0; k < t; k++) {
            int m = it.next(idx, w);
            sizeSum += m;
            sizeSq += (double) m * m;
            for (int a = 0; a < m; a++) {
                counts[idx[a]]++;
                if (a > 0) {
                    assertTrue(idx[a] > idx[a - 1]);
                }
            }
        }
        for (int i = 0; i < n; i++) {
            assertEquals(4000, counts[i], 6 * 56.6);
        }
        double mean = sizeSum / t;
        assertEquals(10, mean, 0.12);
        // variance n q (1-q) = 8; the sample variance has sd about 8*sqrt(2/T) = 0.08; tolerance 0.6
        assertEquals(8, sizeSq / t - mean * mean, 0.6);
    }

    @Test
    void truncatedPoissonFillsExactlyBSlotsWithZeroWeightPadding() {
        // n = 50, q = 0.2, B = 12. Real-batch size = min(K, 12), K ~ Bin(50, 0.2). For each size
        // k the frequency over T = 20000 steps is within 6 binomial sd of its probability (13
        // sizes: false failure < 3e-8). Every record's inclusion frequency is E[min(K, 12)]/n by
        // symmetry (uniform subset): 6-sd check, union over 50 records < 1e-7.
        int n = 50;
        int bigB = 12;
        int t = 20000;
        TruncatedPoissonSampler s = new TruncatedPoissonSampler(10, bigB, t);
        assertEquals(bigB, s.maxBatchSlots(n));
        int[] idx = new int[bigB];
        double[] w = new double[bigB];
        long[] sizeCounts = new long[bigB + 1];
        long[] counts = new long[n];
        BatchSampler.BatchIterator it = s.iterator(n, Rngs.seeded(5));
        for (int k = 0; k < t; k++) {
            int slots = it.next(idx, w);
            assertEquals(bigB, slots);
            int real = 0;
            while (real < bigB && w[real] == 1) {
                real++;
            }
            boolean[] seen = new boolean[n];
            double paddedSum = 0;
            double realSum = 0;
            for (int a = 0; a < bigB; a++) {
                if (a < real) {
                    assertTrue(!seen[idx[a]], "distinct records in a batch");
                    seen[idx[a]] = true;
                    counts[idx[a]]++;
                    realSum += (idx[a] + 1) * (idx[a] % 3 == 0 ? -1.5 : 2.0);
                } else {
                    assertEquals(0.0, w[a], "padding has weight 0");
                }
                paddedSum += w[a] * (idx[a] + 1) * (idx[a] % 3 == 0 ? -1.5 : 2.0);
            }
            assertEquals(realSum, paddedSum, 0.0, "padded weighted sum equals the truncated batch sum");
            sizeCounts[real]++;
        }
        BinomialDistribution bin = new BinomialDistribution(null, n, 0.2);
        double expectedReal = 0;
        for (int k = 0; k <= bigB; k++) {
            double p = k < bigB ? bin.probability(k) : 1 - bin.cumulativeProbability(bigB - 1);
            expectedReal += k * p;
            double sd = Math.sqrt(t * p * (1 - p));
            assertEquals(t * p, sizeCounts[k], 6 * sd + 1e-9, "size " + k);
        }
        double pi = expectedReal / n;
        double sdi = Math.sqrt(t * pi * (1 - pi));
        for (int i = 0; i < n; i++) {
            assertEquals(t * pi, counts[i], 6 * sdi);
        }
    }

    @Test
    void truncatedPoissonIsSeedDeterministicAndStatesItsEvent() {
        TruncatedPoissonSampler s = new TruncatedPoissonSampler(10, 12, 5);
        int[] a = new int[12];
        int[] b = new int[12];
        double[] w = new double[12];
        BatchSampler.BatchIterator x = s.iterator(50, Rngs.seeded(9));
        BatchSampler.BatchIterator y = s.iterator(50, Rngs.seeded(9));
        for (int k = 0; k < 5; k++) {
            x.next(a, w);
            y.next(b, w);
            org.junit.jupiter.api.Assertions.assertArrayEquals(a, b);
        }
        assertEquals(new TruncatedPoissonEvent(0.2, 50, 12, new GaussianEvent(2)), s.stepEvent(50, 2));
        assertEquals(NeighboringRelation.ZERO_OUT, s.relation());
        assertEquals(10.0, s.normalizer(50));
        TruncatedPoissonSampler r = (TruncatedPoissonSampler) Samplers.byName("truncated-poisson").create(1000, 100, 2);
        assertEquals(100 + 80, r.maxBatchSize());
        assertEquals(20, r.steps(1000));
    }

    @Test
    void truncatedPoissonRefusesBadConfigurations() {
        assertThrows(IllegalArgumentException.class, () -> new TruncatedPoissonSampler(0, 5, 1));
        assertThrows(IllegalArgumentException.class, () -> new TruncatedPoissonSampler(5, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new TruncatedPoissonSampler(5, 6, 0));
        assertThrows(IllegalArgumentException.class, () -> new TruncatedPoissonSampler(5, 60, 1).maxBatchSlots(50));
        assertThrows(IllegalArgumentException.class, () -> new TruncatedPoissonSampler(80, 90, 1).stepEvent(50, 1));
        assertThrows(IllegalArgumentException.class, () -> TruncatedPoissonSampler.epochs(5, 1, 50, -1));
    }
}
