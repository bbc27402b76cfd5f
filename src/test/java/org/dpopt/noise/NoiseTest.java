package org.dpopt.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.linalg.Vectors;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class NoiseTest {

    private static double[] moments(UniformRandomProvider rng, double sigma, int m) {
        GaussianNoise g = GaussianNoise.of(rng);
        DMatrixRMaj v = new DMatrixRMaj(m, 1);
        g.addTo(v, sigma);
        double s = 0;
        double s2 = 0;
        for (double x : v.data) {
            s += x;
            s2 += x * x;
        }
        return new double[] {s / m, s2 / m};
    }

    @Test
    void gaussianNoiseHasTheRequestedVariance() {
        // m = 1e6 draws of N(0, 4): mean se 0.002, second-moment se 0.0057; 6-se bands,
        // false-failure probability < 4e-9
        double[] mo = moments(Rngs.seeded(1), 2.0, 1_000_000);
        assertEquals(0, mo[0], 0.012);
        assertEquals(4, mo[1], 0.034);
    }

    @Test
    void secureModeProducesGaussianNoiseToo() {
        double[] mo = moments(Rngs.secure(), 1.0, 200_000);
        // se of the second moment: sqrt(2/2e5) = 0.0032; 6-se band
        assertEquals(1, mo[1], 0.02);
        assertNotEquals(Rngs.secure().nextLong(), Rngs.secure().nextLong());
    }

    @Test
    void laplaceNoiseHasTheRequestedScale() {
        // E|Lap(b)| = b, Var = 2b^2 (theory-notes/test-oracles.md §6); m = 1e6, b = 0.5: se of mean |x| = 0.0005
        LaplaceNoise l = LaplaceNoise.of(Rngs.seeded(3));
        double s = 0;
        double s2 = 0;
        int m = 1_000_000;
        for (int i = 0; i < m; i++) {
            double x = l.sample(0.5);
            s += Math.abs(x);
            s2 += x * x;
        }
        assertEquals(0.5, s / m, 0.003);
        assertEquals(0.5, s2 / m, 0.006);
    }

    @Test
    void seededIsReproducible() {
        DMatrixRMaj a = new DMatrixRMaj(10, 1);
        DMatrixRMaj b = new DMatrixRMaj(10, 1);
        GaussianNoise.of(Rngs.seeded(9)).addTo(a, 1);
        GaussianNoise.of(Rngs.seeded(9)).addTo(b, 1);
        assertEquals(0, Vectors.distance2(a, b), 0);
    }

    @Test
    void rejectsBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> GaussianNoise.of(null));
        assertThrows(IllegalArgumentException.class, () -> GaussianNoise.of(Rngs.seeded(1)).addTo(new DMatrixRMaj(2, 1), -1));
    }
}
