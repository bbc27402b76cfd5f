package org.dpopt.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.dpopt.noise.Rngs;
import org.junit.jupiter.api.Test;

/** The keyed map → group-by-step → truncate construction has the law of the direct samplers. */
class BatchPlanTest {

    private static final PlanKey KEY = new PlanKey(17, 4242);

    @Test
    void untruncatedPlanHasPoissonBatchSizesInclusionsAndIndependence() {
        // n = 50, q = 0.2, T = 20000. Per-record counts ~ Bin(20000, 0.2) (sd 56.6, 6 sd, union over 50:
        // false failure 1e-7); mean batch size within 6 sd (0.12) of 10; variance 8 within 0.6 (> 7 sd);
        // record 0 in steps t and t+1 ~ Bin(19999, 0.04): sd 27.7, 6 sd (false failure 2e-9).
        int n = 50;
        int t = 20000;
        int[][] batches = new BatchPlan(n, 0.2, t, BatchPlan.NO_TRUNCATION, KEY).materialize();
        assertEquals(t, batches.length);
        long[] counts = new long[n];
        double sum = 0;
        double sq = 0;
        boolean[] zeroIn = new boolean[t];
        for (int s = 0; s < t; s++) {
            for (int i : batches[s]) {
                counts[i]++;
                zeroIn[s] |= i == 0;
            }
            sum += batches[s].length;
            sq += (double) batches[s].length * batches[s].length;
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
    void truncatedPlanHasTheTruncatedSizeLawAndUniformSurvivors() {
        // Kept size = min(K, 12), K ~ Bin(50, 0.2): each size within 6 binomial sd over 20000 steps (13 sizes:
        // false failure < 3e-8). Among overfull steps each member survives with the same chance: record 0's
        // survival rate given it was a member equals E[12/K | K > 12] within 6 sd.
        int n = 50;
        int bigB = 12;
        int t = 20000;
        BatchPlan plan = new BatchPlan(n, 0.2, t, bigB, KEY);
        BatchPlan.Stream s = plan.stream();
        long[] sizes = new long[bigB + 1];
        int[][] batches = plan.materialize();
        int overfullWithZero = 0;
        int zeroKept = 0;
        double expectedKept = 0;
        long[][] untruncated = groupByStep(s, n, t);
        for (int step = 0; step < t; step++) {
            int[] b = batches[step];
            assertTrue(b.length <= bigB);
            for (int a = 1; a < b.length; a++) {
                assertTrue(b[a] > b[a - 1], "kept members increasing");
            }
            sizes[b.length]++;
            long[] all = untruncated[step];
            if (all.length > bigB && all[0] == 0) {
                overfullWithZero++;
                expectedKept += (double) bigB / all.length;
                zeroKept += b.length > 0 && b[0] == 0 ? 1 : 0;
            }
        }
        BinomialDistribution bin = new BinomialDistribution(null, n, 0.2);
        for (int k = 0; k <= bigB; k++) {
            double p = k < bigB ? bin.probability(k) : 1 - bin.cumulativeProbability(bigB - 1);
            assertEquals(t * p, sizes[k], 6 * Math.sqrt(t * p * (1 - p)) + 1e-9, "size " + k);
        }
        assertTrue(overfullWithZero > 100, "enough overfull steps containing record 0: " + overfullWithZero);
        double pKeep = expectedKept / overfullWithZero;
        assertEquals(expectedKept, zeroKept, 6 * Math.sqrt(overfullWithZero * pKeep * (1 - pKeep)));
    }

    /** Every step's members before truncation, increasing (stage 1 for every record, grouped). */
    private static long[][] groupByStep(BatchPlan.Stream s, int n, int t) {
        java.util.List<java.util.List<Long>> g = new java.util.ArrayList<>();
        for (int k = 0; k < t; k++) {
            g.add(new java.util.ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            for (long step : s.stepsOf(i)) {
                g.get((int) step).add((long) i);
            }
        }
        long[][] out = new long[t][];
        for (int k = 0; k < t; k++) {
            out[k] = g.get(k).stream().mapToLong(Long::longValue).toArray();
        }
        return out;
    }

    @Test
    void stagesArePureFunctionsOfKeyAndIds() {
        BatchPlan a = new BatchPlan(100, 0.1, 50, 8, KEY);
        BatchPlan b = new BatchPlan(100, 0.1, 50, 8, new PlanKey(17, 4242));
        BatchPlan other = new BatchPlan(100, 0.1, 50, 8, new PlanKey(17, 4243));
        BatchPlan.Stream sa = a.stream();
        BatchPlan.Stream sb = b.stream();
        boolean anyDiff = false;
        for (int i = 99; i >= 0; i--) { // any order
            long[] m = sa.stepsOf(i);
            assertArrayEquals(m, sb.stepsOf(i));
            for (int k = 1; k < m.length; k++) {
                assertTrue(m[k] > m[k - 1], "distinct increasing steps");
            }
            anyDiff |= !Arrays.equals(m, other.stream().stepsOf(i));
        }
        assertTrue(anyDiff, "another key gives another plan");
        long[] members = {1, 4, 9, 16, 25, 36, 49, 64, 81, 90};
        long[] x = sa.keep(7, members);
        assertArrayEquals(x, sb.keep(7, members));
        assertEquals(8, x.length);
        assertFalse(Arrays.equals(x, sa.keep(8, members)) && Arrays.equals(x, sa.keep(9, members)),
                "survivors depend on the step");
        int[][] m1 = a.materialize();
        int[][] m2 = b.materialize();
        for (int k = 0; k < 50; k++) {
            assertArrayEquals(m1[k], m2[k]);
        }
    }

    @Test
    void plannedSamplerStatesTheDirectSamplersEventsAndDrawsItsKeyFromTheRun() {
        PoissonSampler p = new PoissonSampler(20, 30);
        PlannedPoissonSampler pp = PlannedPoissonSampler.of(p);
        assertEquals(p.privacyEvent(1000, 1.3), pp.privacyEvent(1000, 1.3));
        assertEquals(p.relation(), pp.relation());
        assertEquals("planned-poisson", pp.name());
        TruncatedPoissonSampler tp = new TruncatedPoissonSampler(20, 40, 30);
        PlannedPoissonSampler ptp = PlannedPoissonSampler.of(tp);
        assertEquals(tp.privacyEvent(1000, 1.3), ptp.privacyEvent(1000, 1.3));
        assertEquals(tp.relation(), ptp.relation());
        assertTrue(ptp.requiresExactSize());
        // the iterator's batches are the plan of the key drawn first from the same generator
        int[][] want = ptp.plan(1000, PlanKey.draw(Rngs.seeded(5))).materialize();
        BatchSampler.BatchIterator it = ptp.iterator(1000, Rngs.seeded(5));
        int[] idx = new int[40];
        double[] w = new double[40];
        for (int s = 0; s < 30; s++) {
            assertEquals(40, it.next(idx, w), "padded to B");
            int real = 0;
            while (real < 40 && w[real] == 1) {
                real++;
            }
            assertArrayEquals(want[s], Arrays.copyOf(idx, real));
            for (int a = real; a < 40; a++) {
                assertEquals(0.0, w[a]);
            }
        }
        assertThrows(IllegalStateException.class, () -> it.next(idx, w));
    }

    @Test
    void keyIsNeverPrinted() {
        assertFalse(new PlanKey(123456789L, 987654321L).toString().contains("123456789"));
        assertFalse(new BatchPlan(10, 0.1, 5, 3, new PlanKey(123456789L, 1)).toString().contains("123456789"));
    }

    @Test
    void refusesBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> new BatchPlan(0, 0.1, 1, 1, KEY));
        assertThrows(IllegalArgumentException.class, () -> new BatchPlan(10, 0, 1, 1, KEY));
        assertThrows(IllegalArgumentException.class, () -> new BatchPlan(10, 0.1, 0, 1, KEY));
        assertThrows(IllegalArgumentException.class, () -> new BatchPlan(10, 0.1, 1, 0, KEY));
        assertThrows(IllegalArgumentException.class, () -> new BatchPlan(10, 0.1, 1, 1, null));
        BatchPlan p = new BatchPlan(10, 0.1, 5, 3, KEY);
        assertThrows(IllegalArgumentException.class, () -> p.stream().stepsOf(10));
        assertThrows(IllegalArgumentException.class, () -> p.stream().keep(5, new long[0]));
        assertThrows(IllegalArgumentException.class, () -> new PlannedPoissonSampler(5, 10, -1));
        assertThrows(IllegalArgumentException.class, () -> new PlannedPoissonSampler(50, 10, 0).plan(10, KEY));
    }
}
