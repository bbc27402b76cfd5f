package org.dpopt.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.noise.Rngs;
import org.junit.jupiter.api.Test;

class PoissonSamplerTest {

    @Test
    void inclusionFrequenciesMatchQ() {
        int n = 200;
        double b = 20; // q = 0.1
        long steps = 20000;
        PoissonSampler s = new PoissonSampler(b, steps);
        int[] idx = new int[n];
        double[] w = new double[n];
        long[] counts = new long[n];
        long total = 0;
        BatchSampler.BatchIterator it = s.iterator(n, Rngs.seeded(99));
        for (long t = 0; t < steps; t++) {
            int k = it.next(idx, w);
            total += k;
            for (int a = 0; a < k; a++) {
                counts[idx[a]]++;
                assertEquals(1.0, w[a], 0);
                if (a > 0) {
                    assertTrue(idx[a] > idx[a - 1], "batches come sorted and without repeats");
                }
            }
        }
        // Each count ~ Bin(20000, 0.1): mean 2000, sd 42.4. A 6-sd band per index: false-failure
        // probability <= 200 * 2e-9 ~ 4e-7.
        for (int i = 0; i < n; i++) {
            assertTrue(Math.abs(counts[i] - 2000) < 6 * 42.43, "index " + i + " count " + counts[i]);
        }
        // total ~ Bin(4e6, 0.1): mean 4e5, sd 600; 6-sd band
        assertTrue(Math.abs(total - 400000) < 3600, "total " + total);
    }

    @Test
    void batchSizeVarianceIsBinomial() {
        int n = 1000;
        PoissonSampler s = new PoissonSampler(50, 5000);
        int[] idx = new int[n];
        double[] w = new double[n];
        BatchSampler.BatchIterator it = s.iterator(n, Rngs.seeded(7));
        double sum = 0;
        double sq = 0;
        for (int t = 0; t < 5000; t++) {
            int k = it.next(idx, w);
            sum += k;
            sq += (double) k * k;
        }
        double mean = sum / 5000;
        double var = sq / 5000 - mean * mean;
        // Bin(1000, 0.05): mean 50 (se 0.22), var 47.5 (se ~0.95); 6-se bands, false failure < 1e-8
        assertEquals(50, mean, 1.4);
        assertEquals(47.5, var, 5.7);
    }

    @Test
    void sameSeedSameBatches() {
        PoissonSampler s = new PoissonSampler(10, 5);
        int[] a = new int[100];
        int[] b = new int[100];
        double[] w = new double[100];
        BatchSampler.BatchIterator ia = s.iterator(100, Rngs.seeded(3));
        BatchSampler.BatchIterator ib = s.iterator(100, Rngs.seeded(3));
        for (int t = 0; t < 5; t++) {
            int ka = ia.next(a, w);
            int kb = ib.next(b, w);
            assertArrayEquals(Arrays.copyOf(a, ka), Arrays.copyOf(b, kb));
        }
    }

    @Test
    void statesItsOwnEvent() {
        PoissonSampler s = PoissonSampler.epochs(10, 3, 100);
        assertEquals(30, s.steps(100));
        assertEquals(10.0, s.normalizer(100), 0);
        assertEquals(new SelfComposedEvent(new PoissonSampledEvent(0.1, new GaussianEvent(2)), 30),
                s.privacyEvent(100, 2));
        assertEquals(s.privacyEvent(100, 2), DpEvents.normalize(s.privacyEvent(100, 2)));
    }

    @Test
    void rejectsBadParameters() {
        assertThrows(IllegalArgumentException.class, () -> new PoissonSampler(0, 10));
        assertThrows(IllegalArgumentException.class, () -> new PoissonSampler(5, 0));
        assertThrows(IllegalArgumentException.class, () -> new PoissonSampler(500, 1).samplingProbability(100));
        assertThrows(IllegalArgumentException.class, () -> Samplers.byName("bogus"));
    }
}
