package org.dpopt.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * The full-pass kernels: the sequential pass is the row-by-row loop bit for bit; the blocked pass gives the same bits on 1, 2 and 3 threads and agrees with the sequential pass to rounding.
 * Deterministic (fixed seeds).
 */
class GllKernelsTest {

    private static Dataset data(int n, int d, long seed) {
        UniformRandomProvider rng = Rngs.seeded(seed);
        return Synthetic.logistic(n, Synthetic.plantedVector(d, 2.0, rng), rng).data();
    }

    @Test
    void sequentialPassIsTheRowByRowLoopBitForBit() {
        for (int n : new int[] {1, 3, 4, 1001}) {
            Dataset data = data(n, 7, n);
            GeneralizedLinearLoss loss = Losses.logistic();
            DMatrixRMaj w = Synthetic.plantedVector(7, 1.5, Rngs.seeded(9));
            DMatrixRMaj expected = new DMatrixRMaj(7, 1);
            double lossSum = 0;
            for (int i = 0; i < n; i++) {
                data.addScaledRow(i, loss.derivative(data.dot(i, w), data.label(i)) / n, expected);
                lossSum += loss.phi(data.dot(i, w), data.label(i));
            }
            DMatrixRMaj got = new DMatrixRMaj(7, 1);
            GllKernels.addGradient(data, loss, w, n, got);
            assertArrayEquals(expected.data, got.data, 0.0, "n=" + n);
            assertEquals(Double.doubleToLongBits(lossSum), Double.doubleToLongBits(GllKernels.lossSum(data, loss, w)));
        }
    }

    @Test
    void blockedPassDoesNotDependOnTheThreadCountAndAgreesToRounding() {
        int n = 3 * GllKernels.BLOCK + 123;
        Dataset data = data(n, 20, 5);
        GeneralizedLinearLoss loss = Losses.logistic();
        DMatrixRMaj w = Synthetic.plantedVector(20, 1.5, Rngs.seeded(10));
        DMatrixRMaj seq = new DMatrixRMaj(20, 1);
        GllKernels.addGradient(data, loss, w, n, seq);
        DMatrixRMaj one = new DMatrixRMaj(20, 1);
        GllKernels.addGradientBlocked(data, loss, w, n, one, 1);
        double worst = 0;
        for (int j = 0; j < 20; j++) {
            worst = Math.max(worst, Math.abs(one.data[j] - seq.data[j]) / Math.abs(seq.data[j]));
        }
        System.out.printf("blocked vs sequential full gradient: max relative difference %.2e%n", worst);
        assertEquals(true, worst < 1e-12, "relative difference " + worst);
        for (int threads : new int[] {2, 3}) {
            DMatrixRMaj t = new DMatrixRMaj(20, 1);
            GllKernels.addGradientBlocked(data, loss, w, n, t, threads);
            assertArrayEquals(one.data, t.data, 0.0, "threads=" + threads);
        }
        assertThrows(IllegalArgumentException.class,
                () -> GllKernels.addGradientBlocked(data, loss, w, n, new DMatrixRMaj(20, 1), 0));
    }
}
