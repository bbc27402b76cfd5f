package org.dpopt.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Vectors;
import org.dpopt.noise.Rngs;
import org.dpopt.oracle.ExactGradientOracle;
import org.dpopt.oracle.GradientOracle;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * The multinomial loss: gradient against finite differences, the closed-form norm ‖p − e_y‖·‖x‖ and
 * the declared bound L = √2·R, the one-multiply clipping path against the generic clip-and-sum, and
 * its label checks. Deterministic (fixed seeds).
 */
class MultinomialLogisticLossTest {

    static final int K = 4;
    static final int D = 5;

    static Dataset data(UniformRandomProvider rng, int n, int k, int d) {
        double[][] x = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                x[i][j] = rng.nextDouble() * 2 - 1;
                s += x[i][j] * x[i][j];
            }
            double f = rng.nextDouble() / Math.sqrt(s);
            for (int j = 0; j < d; j++) {
                x[i][j] *= f;
            }
            y[i] = rng.nextInt(k);
        }
        return Dataset.of(x, y, 1.0);
    }

    private static DMatrixRMaj randomW(UniformRandomProvider rng, int p, double scale) {
        DMatrixRMaj w = new DMatrixRMaj(p, 1);
        for (int j = 0; j < p; j++) {
            w.data[j] = scale * (rng.nextDouble() * 2 - 1);
        }
        return w;
    }

    @Test
    void gradientMatchesFiniteDifferences() {
        UniformRandomProvider rng = Rngs.seeded(3);
        MultinomialLogisticLoss loss = Losses.multinomial(K);
        Dataset data = data(rng, 20, K, D);
        DMatrixRMaj w = randomW(rng, K * D, 2);
        DMatrixRMaj g = new DMatrixRMaj(K * D, 1);
        double h = 1e-6;
        for (int i = 0; i < data.size(); i++) {
            loss.gradient(w, data, i, g);
            for (int j = 0; j < K * D; j++) {
                double old = w.data[j];
                w.data[j] = old + h;
                double up = loss.value(w, data, i);
                w.data[j] = old - h;
                double down = loss.value(w, data, i);
                w.data[j] = old;
                assertEquals((up - down) / (2 * h), g.data[j], 1e-6, "row " + i + " coordinate " + j);
            }
        }
    }

    @Test
    void gradientNormIsClosedFormAndWithinTheDeclaredBound() {
        UniformRandomProvider rng = Rngs.seeded(4);
        MultinomialLogisticLoss loss = Losses.multinomial(K);
        Dataset data = data(rng, 200, K, D);
        DMatrixRMaj g = new DMatrixRMaj(K * D, 1);
        double worst = 0;
        for (int t = 0; t < 20; t++) {
            DMatrixRMaj w = randomW(rng, K * D, 30); // large scores: p close to a vertex, ‖p − e_y‖ near √2
            for (int i = 0; i < data.size(); i++) {
                loss.gradient(w, data, i, g);
                double norm = Vectors.norm2(g);
                assertTrue(norm <= loss.lipschitz(data.rowNormBound()) * (1 + 1e-12), "norm " + norm);
                worst = Math.max(worst, norm / data.rowNorm(i));
            }
        }
        assertEquals(Math.sqrt(2), loss.lipschitz(1.0), 0);
        assertTrue(worst > 1.3, "the bound √2 is approached: " + worst);
        assertEquals(0.5, loss.smoothness(1.0), 0);
        assertEquals(K * D, loss.parameterDimension(D));
    }

    /** The fast path (k scores in scratch, one multiply to clip) adds exactly the generic clipped gradients. */
    @Test
    void fastClipAndSumEqualsTheGenericKernel() {
        UniformRandomProvider rng = Rngs.seeded(5);
        MultinomialLogisticLoss loss = Losses.multinomial(K);
        Dataset data = data(rng, 60, K, D);
        DMatrixRMaj w = randomW(rng, K * D, 5);
        int[] idx = new int[data.size() + 2];
        double[] weights = new double[idx.length];
        for (int a = 0; a < idx.length; a++) {
            idx[a] = a % (data.size() + 1); // includes an index beyond the rows (absent record)
            weights[a] = a % 7 == 0 ? 0 : 1;
        }
        GradientOracle generic = new GradientOracle() {
            @Override
            public void gradient(DMatrixRMaj ww, Dataset dd, int i, DMatrixRMaj out) {
                loss.gradient(ww, dd, i, out);
            }

            @Override
            public double normBound() {
                return loss.lipschitz(1.0);
            }
        };
        for (double clip : new double[] {0.05, 0.3, Double.POSITIVE_INFINITY}) {
            DMatrixRMaj fast = new DMatrixRMaj(K * D, 1);
            DMatrixRMaj slow = new DMatrixRMaj(K * D, 1);
            DMatrixRMaj scratch = new DMatrixRMaj(K * D, 1);
            int cf = new ExactGradientOracle(loss, Double.POSITIVE_INFINITY)
                    .addClippedBatch(w, data, idx, 0, idx.length, weights, clip, fast, scratch);
            int cs = generic.addClippedBatch(w, data, idx, 0, idx.length, weights, clip, slow, scratch);
            assertEquals(cs, cf, "clipped counts at C = " + clip);
            for (int j = 0; j < K * D; j++) {
                assertEquals(slow.data[j], fast.data[j], 1e-12, "coordinate " + j + " at C = " + clip);
            }
        }
    }

    @Test
    void valueIsTheCrossEntropy() {
        Dataset one = Dataset.of(new double[][] {{0.6, 0.0}}, new double[] {2}, 1.0);
        DMatrixRMaj w = new DMatrixRMaj(new double[] {1, 0, 0, 0, -1, 0}); // scores 0.6, 0, -0.6
        double z = Math.exp(0.6) + 1 + Math.exp(-0.6);
        assertEquals(Math.log(z) + 0.6, Losses.multinomial(3).value(w, one, 0), 1e-12);
    }

    @Test
    void refusesLabelsOutsideTheClassSet() {
        MultinomialLogisticLoss loss = Losses.multinomial(3);
        for (double bad : new double[] {3, -1, 0.5}) {
            Dataset d = Dataset.of(new double[][] {{0.1}, {0.2}}, new double[] {0, bad}, 1.0);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Problem.of(d, loss));
            assertTrue(e.getMessage().startsWith("label of row 1 of the data must be an integer in 0..2"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> Losses.multinomial(1));
        assertThrows(IllegalArgumentException.class, () -> Losses.byName("multinomial"));
        assertEquals(loss, Losses.byName("multinomial", 3));
    }
}
