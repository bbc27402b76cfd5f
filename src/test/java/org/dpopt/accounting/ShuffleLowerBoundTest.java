package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Oracle values of theory-notes/test-oracles.md §4 (an independent script following Chua et al. 2024). */
class ShuffleLowerBoundTest {

    private static void close(double expected, double actual, double rel) {
        assertEquals(expected, actual, rel * Math.abs(expected), () -> "expected " + expected + " got " + actual);
    }

    @Test
    void singleEpochMatchesOracleAtPaperExampleSigma() {
        double[] eps = {0.5, 1, 2, 4, 6, 8, 10};
        double[] want = {7.999584e-1, 7.531468e-1, 6.417759e-1, 3.834053e-1, 1.665734e-1, 5.006558e-2, 1.002355e-2};
        for (int k = 0; k < eps.length; k++) {
            close(want[k], ShuffleLowerBound.singleEpochDelta(eps[k], 0.35, 1000), 1e-6);
        }
    }

    @Test
    void singleEpochAtSigmaPoint8AndSlicePathConsistency() {
        double[] eps = {1, 2, 4};
        double[] direct = {1.794442e-2, 4.272903e-3, 1.595638e-4};
        for (int k = 0; k < eps.length; k++) {
            close(direct[k], ShuffleLowerBound.singleEpochDelta(eps[k], 0.8, 1000), 1e-6);
        }
        double[] sliced = {1.793465e-2, 4.270015e-3, 1.594253e-4};
        for (int k = 0; k < eps.length; k++) {
            close(sliced[k], ShuffleLowerBound.slicedDelta(eps[k], 0.8, 1000, 1, 1e-3, -40), 1e-4);
        }
    }

    @Test
    void persistentAndDynamicMultiEpochMatchOracle() {
        long[] epochs = {2, 2, 2, 5, 5, 5};
        double[] eps = {1, 2, 4, 1, 2, 4};
        double[] dyn = {3.884201e-2, 1.026642e-2, 5.536550e-4, 1.072685e-1, 3.694806e-2, 3.602080e-3};
        double[] per = {2.239178e-1, 1.272059e-1, 2.660159e-2, 7.371600e-1, 6.214776e-1, 3.584653e-1};
        for (int k = 0; k < eps.length; k++) {
            close(per[k], ShuffleLowerBound.persistentDelta(eps[k], 0.8, 1000, epochs[k]), 1e-6);
            close(dyn[k], ShuffleLowerBound.dynamicDelta(eps[k], 0.8, 1000, epochs[k]), 1e-4);
        }
    }

    @Test
    void lowerBoundNeverExceedsDeterministicUpperBound() {
        for (double sigma : new double[] {0.35, 0.8, 2}) {
            for (double eps : new double[] {0.5, 1, 3}) {
                for (long e : new long[] {1, 3}) {
                    double upper = GaussianMechanism.delta(eps, sigma / Math.sqrt(e));
                    assertTrue(ShuffleLowerBound.persistentDelta(eps, sigma, 100, e) <= upper + 1e-12);
                    assertTrue(ShuffleLowerBound.dynamicDelta(eps, sigma, 100, e) <= upper + 1e-12);
                }
            }
        }
    }

    @Test
    void refusesBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> ShuffleLowerBound.singleEpochDelta(-1, 1, 10));
        assertThrows(IllegalArgumentException.class, () -> ShuffleLowerBound.singleEpochDelta(1, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> ShuffleLowerBound.singleEpochDelta(1, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> ShuffleLowerBound.persistentDelta(1, 1, 10, 0));
        assertThrows(IllegalArgumentException.class, () -> ShuffleLowerBound.dynamicDelta(1, 1, 10, 2, 0, -40));
        assertThrows(IllegalArgumentException.class, () -> ShuffleLowerBound.dynamicDelta(1, 1, 10, 2, 1e-3, 0));
    }
}
