package org.dpopt.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/** The aligned shuffled pair's log-likelihood ratio against its formula, computed by hand. */
class AlignedShuffleLlrTest {

    private static RunView view(double[] y, double c, double sigma) {
        int t = y.length;
        double[] s = new double[t];
        double[] d = new double[t];
        double[] q = new double[t];
        java.util.Arrays.fill(s, sigma);
        java.util.Arrays.fill(d, c);
        java.util.Arrays.fill(q, Double.NaN);
        return new RunView(y, s, d, q, new int[t], new int[0], new DMatrixRMaj(2, 1), new DMatrixRMaj(2, 1));
    }

    @Test
    void oneEpochOfTwoStepsWithBatchesOfOne() {
        // offset b·c = 1: ỹ = (2, 0); with: log(e^{(2·2 − 2)} + e^{(0 − 2)}), without: log(e^{1.5} + e^{−0.5})
        double expected = Math.log(Math.exp(2) + Math.exp(-2)) - Math.log(Math.exp(1.5) + Math.exp(-0.5));
        double got = Statistics.alignedShuffleLlr(2, 1, Double.NaN).score(view(new double[] {1, -1}, 1, 1));
        assertEquals(expected, got, 1e-12);
    }

    @Test
    void epochsAddAndScalesEnter() {
        // two epochs of one step each: log ratio (2cỹ − 2c²)/σ² − (cỹ − c²/2)/σ² = (cỹ − 1.5c²)/σ² per epoch
        double c = 0.5;
        double sigma = 2;
        double[] y = {0.3, -0.7};
        double expected = 0;
        for (double v : y) {
            double yt = v + 3 * c;
            expected += (c * yt - 1.5 * c * c) / (sigma * sigma);
        }
        AuditStatistic s = Statistics.alignedShuffleLlr(1, 3, 2.2);
        assertEquals(expected, s.score(view(y, c, sigma)), 1e-12);
        assertEquals(2.2, s.fixedThreshold());
        assertTrue(Double.isNaN(Statistics.alignedShuffleLlr(1, 3, Double.NaN).fixedThreshold()));
    }
}
