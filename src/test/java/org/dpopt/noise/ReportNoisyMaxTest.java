package org.dpopt.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.junit.jupiter.api.Test;

class ReportNoisyMaxTest {

    @Test
    void twoCandidateClosedForm() {
        // theory-notes/test-oracles.md §3: gap g = 1, b = 0.5 ⇒ P(better wins) = 1 − ½e^{−g/b}(1 + g/(2b)) = 0.8646647.
        // Δ = 0.25, ε0 = 1, non-monotone ⇒ b = 2Δ/ε0 = 0.5. N = 400000 draws: sd = 5.4e-4; tolerance
        // 5 sd = 2.7e-3 ⇒ false-failure probability ≈ 6e-7 (seed fixed).
        ReportNoisyMax rnm = new ReportNoisyMax(0.25, 1.0, false, NeighboringRelation.REPLACE_ONE);
        assertEquals(0.5, rnm.scale(), 0);
        UniformRandomProvider rng = Rngs.seeded(7);
        double[] s = {0.0, 1.0};
        int n = 400_000;
        int wins = 0;
        int minWins = 0;
        for (int k = 0; k < n; k++) {
            if (rnm.argmax(s, 2, rng) == 1) {
                wins++;
            }
            if (rnm.argmin(s, 2, rng) == 0) {
                minWins++;
            }
        }
        double p = 1 - 0.5 * Math.exp(-2) * (1 + 1);
        assertEquals(0.8646647, p, 1e-7);
        assertEquals(p, (double) wins / n, 2.7e-3);
        assertEquals(p, (double) minWins / n, 2.7e-3);
    }

    @Test
    void privacyRatioOnNeighbouringScores() {
        // Three candidates, scores moved non-monotonically by at most Δ = 0.5 (ε0 = 1): every outcome's
        // probability ratio must be ≤ e^{ε0} = 2.718. Estimated ratios with N = 300000 per side; the
        // worst true ratio here is about 1.6, far below e, so sampling error (relative sd ≈ 0.5%) cannot
        // cross the bound: false-failure probability < 1e-9.
        ReportNoisyMax rnm = new ReportNoisyMax(0.5, 1.0, false, NeighboringRelation.REPLACE_ONE);
        double[] a = {0.0, 0.5, 1.0};
        double[] b = {0.5, 0.0, 0.5};
        int n = 300_000;
        int[] ca = new int[3];
        int[] cb = new int[3];
        UniformRandomProvider rng = Rngs.seeded(11);
        for (int k = 0; k < n; k++) {
            ca[rnm.argmax(a, 3, rng)]++;
            cb[rnm.argmax(b, 3, rng)]++;
        }
        for (int j = 0; j < 3; j++) {
            double r = Math.max((double) ca[j] / cb[j], (double) cb[j] / ca[j]);
            org.junit.jupiter.api.Assertions.assertTrue(r < Math.E, "ratio " + r + " for outcome " + j);
        }
    }

    @Test
    void selectionOverTwoDVerticesDoesNotAllocate() {
        // RNM over the 2d = 20000 scores of an ℓ1 ball: one pass, no sorting, no allocation
        ReportNoisyMax rnm = new ReportNoisyMax(0.1, 1.0, false, NeighboringRelation.REPLACE_ONE);
        double[] scores = new double[20_000];
        for (int j = 0; j < scores.length; j++) {
            scores[j] = Math.sin(j);
        }
        UniformRandomProvider rng = Rngs.seeded(3);
        int sink = 0;
        for (int k = 0; k < 200; k++) {
            sink += rnm.argmin(scores, scores.length, rng);
        }
        com.sun.management.ThreadMXBean mx =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
        for (int k = 0; k < 200; k++) {
            sink += rnm.argmin(scores, scores.length, rng);
        }
        long allocated = mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        assertTrue(sink >= 0);
        assertTrue(allocated < 4096, "allocated " + allocated + " bytes in 200 selections");
    }

    @Test
    void eventAndScales() {
        ReportNoisyMax rnm = new ReportNoisyMax(0.2, 0.5, true, NeighboringRelation.ADD_OR_REMOVE_ONE);
        assertEquals(0.4, rnm.scale(), 1e-15);
        assertEquals(new EpsilonDeltaEvent(0.5, 0), rnm.event());
        assertEquals(NeighboringRelation.ADD_OR_REMOVE_ONE, rnm.relation());
    }

    @Test
    void refusesBadInput() {
        assertThrows(IllegalArgumentException.class, () -> new ReportNoisyMax(0, 1, false, NeighboringRelation.REPLACE_ONE));
        assertThrows(IllegalArgumentException.class, () -> new ReportNoisyMax(1, 0, false, NeighboringRelation.REPLACE_ONE));
        assertThrows(IllegalArgumentException.class,
                () -> new ReportNoisyMax(1, Double.POSITIVE_INFINITY, false, NeighboringRelation.REPLACE_ONE));
        assertThrows(IllegalArgumentException.class, () -> new ReportNoisyMax(1, 1, false, null));
        ReportNoisyMax rnm = new ReportNoisyMax(1, 1, false, NeighboringRelation.REPLACE_ONE);
        assertThrows(IllegalArgumentException.class, () -> rnm.argmax(new double[2], 3, Rngs.seeded(1)));
        assertThrows(IllegalArgumentException.class, () -> rnm.argmax(new double[2], 0, Rngs.seeded(1)));
    }
}
