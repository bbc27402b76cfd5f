package org.dpopt.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Vectors;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Contract test run for every loss: gradients vs finite differences, declared bounds, convexity. */
class LossContractTest {

    static Stream<GeneralizedLinearLoss> losses() {
        return Stream.of(Losses.logistic(), Losses.hinge(), Losses.absolute(), Losses.squared(1.0, 1.0),
                Losses.huber(0.5), Losses.smoothedHinge(0.5));
    }

    private static Dataset randomData(UniformRandomProvider rng, int n, int d, boolean classification) {
        double[][] x = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                x[i][j] = rng.nextDouble() * 2 - 1;
                s += x[i][j] * x[i][j];
            }
            double f = rng.nextDouble() / Math.sqrt(s); // norm uniform in [0, 1)
            for (int j = 0; j < d; j++) {
                x[i][j] *= f;
            }
            y[i] = classification ? (rng.nextBoolean() ? 1 : 0) : rng.nextDouble() * 2 - 1;
        }
        return Dataset.of(x, y, 1.0);
    }

    @ParameterizedTest
    @MethodSource("losses")
    void gradientMatchesFiniteDifferencesAwayFromKinks(GeneralizedLinearLoss loss) {
        UniformRandomProvider rng = Rngs.seeded(11);
        int d = 5;
        Dataset data = randomData(rng, 40, d, loss.isClassification());
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        DMatrixRMaj wp = new DMatrixRMaj(d, 1);
        double h = 1e-6;
        int checked = 0;
        for (int trial = 0; trial < 20; trial++) {
            for (int j = 0; j < d; j++) {
                w.data[j] = rng.nextDouble() * 4 - 2;
            }
            for (int i = 0; i < data.size(); i++) {
                double u = data.dot(i, w);
                if (nearKink(loss, u, data.label(i), 1e-3)) {
                    continue;
                }
                loss.gradient(w, data, i, g);
                for (int j = 0; j < d; j++) {
                    Vectors.copy(w, wp);
                    wp.data[j] += h;
                    double fp = loss.value(wp, data, i);
                    wp.data[j] -= 2 * h;
                    double fm = loss.value(wp, data, i);
                    assertEquals((fp - fm) / (2 * h), g.data[j], 1e-5, loss + " row " + i + " coord " + j);
                }
                checked++;
            }
        }
        assertTrue(checked > 100, "too few points checked: " + checked);
    }

    private static boolean nearKink(GeneralizedLinearLoss loss, double u, double y, double tol) {
        double s = y > 0 ? 1 : -1;
        switch (loss.name()) {
            case "hinge":
            case "smoothed-hinge":
                return Math.abs(s * u - 1) < tol || Math.abs(s * u - 0.5) < tol;
            case "absolute":
                return Math.abs(u - y) < tol;
            case "squared":
                return Math.abs(Math.abs(u - y) - 2.0) < tol;
            case "huber":
                return Math.abs(Math.abs(u - y) - 0.5) < tol;
            default:
                return false;
        }
    }

    @ParameterizedTest
    @MethodSource("losses")
    void gradientNeverExceedsDeclaredLipschitzBound(GeneralizedLinearLoss loss) {
        UniformRandomProvider rng = Rngs.seeded(12);
        int d = 4;
        Dataset data = randomData(rng, 50, d, loss.isClassification());
        double lip = loss.lipschitz(data.rowNormBound());
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        for (int trial = 0; trial < 200; trial++) {
            for (int j = 0; j < d; j++) {
                w.data[j] = (rng.nextDouble() * 2 - 1) * 100; // far outside any nominal domain
            }
            for (int i = 0; i < data.size(); i++) {
                loss.gradient(w, data, i, g);
                assertTrue(Vectors.norm2(g) <= lip * (1 + 1e-12), loss + ": |grad| " + Vectors.norm2(g) + " > " + lip);
                assertTrue(Math.abs(loss.derivative(data.dot(i, w), data.label(i))) <= loss.scalarLipschitz());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("losses")
    void scalarLossIsConvexAndSmoothAsDeclared(GeneralizedLinearLoss loss) {
        // midpoint convexity of phi(., y) and |phi'(u) - phi'(v)| <= beta0 |u - v|
        UniformRandomProvider rng = Rngs.seeded(13);
        for (int t = 0; t < 5000; t++) {
            double y = loss.isClassification() ? (rng.nextBoolean() ? 1 : -1) : rng.nextDouble() * 2 - 1;
            double u = rng.nextDouble() * 10 - 5;
            double v = rng.nextDouble() * 10 - 5;
            double mid = loss.phi(0.5 * (u + v), y);
            assertTrue(mid <= 0.5 * (loss.phi(u, y) + loss.phi(v, y)) + 1e-12, loss + " not convex");
            if (Double.isFinite(loss.scalarSmoothness())) {
                double dd = Math.abs(loss.derivative(u, y) - loss.derivative(v, y));
                assertTrue(dd <= loss.scalarSmoothness() * Math.abs(u - v) + 1e-12, loss + " not beta-smooth");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("losses")
    void problemLipschitzScalesWithRowNormBound(GeneralizedLinearLoss loss) {
        assertEquals(loss.scalarLipschitz() * 3, loss.lipschitz(3.0), 1e-12);
        if (Double.isFinite(loss.scalarSmoothness())) {
            assertEquals(loss.scalarSmoothness() * 9, loss.smoothness(3.0), 1e-12);
        }
    }

    @org.junit.jupiter.api.Test
    void lossParametersAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> Losses.squared(0, 1));
        assertThrows(IllegalArgumentException.class, () -> Losses.squared(1, -1));
        assertThrows(IllegalArgumentException.class, () -> Losses.huber(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> Losses.smoothedHinge(-1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Losses.byName("nope"));
        assertTrue(e.getMessage().startsWith("loss must be one of"), e.getMessage());
    }
}
