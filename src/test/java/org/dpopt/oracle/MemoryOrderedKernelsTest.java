package org.dpopt.oracle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * The clip-and-sum kernels (the plain one, and the one with buffers: labels and row norms read ahead, dots
 * four rows at a time) give the row-by-row loop's sums to the bit, with padding slots, zero weights and absent records, batches longer
 * than a chunk, and clipping that is active for some rows only. Deterministic (fixed seeds).
 */
class MemoryOrderedKernelsTest {

    @Test
    void bufferedAndPlainKernelsEqualTheRowByRowLoopBitForBit() {
        for (int d : new int[] {1, 3, 7, 100}) {
            for (GeneralizedLinearLoss loss : new GeneralizedLinearLoss[] {Losses.logistic(), Losses.hinge(),
                    Losses.huber(0.5)}) {
                check(loss, d, 11L + d);
            }
        }
    }

    private static void check(GeneralizedLinearLoss loss, int d, long seed) {
        UniformRandomProvider rng = Rngs.seeded(seed);
        int n = 500;
        Dataset data = Synthetic.logistic(n, Synthetic.plantedVector(d, 2.0, rng), rng).data();
        int slots = 300; // longer than a chunk
        int[] idx = new int[slots];
        double[] weights = new double[slots];
        for (int a = 0; a < slots; a++) {
            idx[a] = rng.nextInt(n + 20); // some ids beyond the rows: absent records
            weights[a] = rng.nextInt(5) == 0 ? 0.0 : rng.nextDouble() * 2;
        }
        DMatrixRMaj w = Synthetic.plantedVector(d, 3.0, rng);
        double clip = 0.3; // clips some gradients, not all
        ExactGradientOracle oracle = ExactGradientOracle.of(loss, data.rowNormBound());
        DMatrixRMaj expected = Vectors.of(new double[d]);
        int expectedClipped = rowByRow(loss, w, data, idx, weights, clip, expected);
        DMatrixRMaj inPlace = Vectors.of(new double[d]);
        int c1 = oracle.addClippedBatch(w, data, idx, 0, slots, weights, clip, inPlace, new DMatrixRMaj(d, 1));
        DMatrixRMaj buffered = Vectors.of(new double[d]);
        int c2 = oracle.addClippedBatch(w, data, idx, 0, slots, weights, clip, buffered, new DMatrixRMaj(d, 1),
                BatchBuffers.of(slots));
        assertArrayEquals(expected.data, inPlace.data, 0.0, "in place, d=" + d);
        assertArrayEquals(expected.data, buffered.data, 0.0, "buffered, d=" + d);
        assertEquals(expectedClipped, c1);
        assertEquals(expectedClipped, c2);
        assertEquals(true, expectedClipped > 0 && expectedClipped < slots, "clipping active for some rows");
    }

    /** The reference: dot, φ′, clip by |φ′|·‖x‖, axpy, one row at a time. */
    private static int rowByRow(GeneralizedLinearLoss loss, DMatrixRMaj w, Dataset data, int[] idx,
            double[] weights, double clip, DMatrixRMaj out) {
        int clipped = 0;
        for (int a = 0; a < idx.length; a++) {
            int i = idx[a];
            if (weights[a] == 0 || i >= data.size()) {
                continue;
            }
            double g = loss.derivative(data.dot(i, w), data.label(i));
            double norm = Math.abs(g) * data.rowNorm(i);
            double scale = 1.0;
            if (norm > clip) {
                scale = clip / norm;
                clipped++;
            }
            data.addScaledRow(i, g * scale * weights[a], out);
        }
        return clipped;
    }
}
