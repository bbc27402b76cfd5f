package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Balle–Wang exact curve against the oracle table of theory-notes/test-oracles.md §1 (sensitivity 1). */
class GaussianMechanismTest {

    // provenance: theory-notes/test-oracles.md §1 (an independent script from the closed form)
    private static final double[] SIGMAS = {0.5, 1.0, 2.0};
    private static final double[] EPS = {0, 0.5, 1, 2, 5};
    private static final double[][] DELTA = {
        {0.6826895, 0.5991856, 0.5098617, 0.3318980, 0.03228198},
        {0.3829249, 0.2384217, 0.1269367, 0.02092364, 5.793722e-07},
        {0.1974127, 0.05244032, 0.006829595, 9.439169e-06, 4.415443e-24},
    };

    @Test
    void deltaMatchesOracleTable() {
        for (int i = 0; i < SIGMAS.length; i++) {
            for (int j = 0; j < EPS.length; j++) {
                double got = GaussianMechanism.delta(EPS[j], SIGMAS[i]);
                assertEquals(DELTA[i][j], got, 1e-6 * DELTA[i][j], "sigma=" + SIGMAS[i] + " eps=" + EPS[j]);
            }
        }
    }

    @Test
    void deltaAtZeroIsTotalVariation() {
        for (double s : new double[] {0.3, 1, 7}) {
            double tv = 2 * GaussianMechanism.normalCdf(1 / (2 * s)) - 1;
            assertEquals(tv, GaussianMechanism.delta(0, s), 1e-12);
        }
    }

    @Test
    void epsilonAndCalibrationOracles() {
        assertEquals(4.377178, GaussianMechanism.epsilon(1e-5, 1.0), 1e-6 * 4.377178);
        double z = GaussianMechanism.noiseMultiplier(1, 1e-5);
        assertEquals(3.730632, z, 1e-6 * 3.730632);
        assertTrue(GaussianMechanism.delta(1, z) <= 1e-5, "calibrated z must meet the target");
        // classic calibration is always at least the exact one
        assertTrue(Math.sqrt(2 * Math.log(1.25 / 1e-5)) >= z);
    }

    @Test
    void classicFormulaFailsAboveEpsilonOne() {
        // theory-notes/test-oracles.md §1 negative test: classic sigma at eps = 10 violates the target delta
        double zc = Math.sqrt(2 * Math.log(1.25 / 1e-5)) / 10;
        assertEquals(2.265374e-5, GaussianMechanism.delta(10, zc), 1e-6 * 2.265374e-5);
        double zc3 = Math.sqrt(2 * Math.log(1.25 / 1e-3)) / 10;
        assertEquals(3.361940e-3, GaussianMechanism.delta(10, zc3), 1e-6 * 3.361940e-3);
    }

    @Test
    void rejectsBadInput() {
        assertThrows(IllegalArgumentException.class, () -> GaussianMechanism.delta(-1, 1));
        assertThrows(IllegalArgumentException.class, () -> GaussianMechanism.delta(1, 0));
        assertThrows(IllegalArgumentException.class, () -> GaussianMechanism.epsilon(0, 1));
        assertThrows(IllegalArgumentException.class, () -> GaussianMechanism.epsilon(1.5, 1));
        assertThrows(IllegalArgumentException.class, () -> GaussianMechanism.noiseMultiplier(Double.NaN, 1e-5));
    }
}
