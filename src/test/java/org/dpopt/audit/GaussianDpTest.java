package org.dpopt.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Deterministic checks of the Gaussian-DP conversions. */
class GaussianDpTest {

    @Test
    void quantileInvertsTheCdf() {
        for (double p : new double[] {1e-9, 1e-4, 0.025, 0.3, 0.5, 0.8, 0.975, 1 - 1e-6}) {
            double x = GaussianDp.normalQuantile(p);
            assertEquals(p, org.dpopt.accounting.GaussianMechanism.normalCdf(x), 1e-9 * Math.max(p, 1e-3));
        }
        assertEquals(1.959963984540054, GaussianDp.normalQuantile(0.975), 1e-12);
    }

    @Test
    void muOfAPointOnTheGaussianCurve() {
        // the point (a, Φ(Φ⁻¹(1 − a) − μ)) of G_μ gives back μ
        double mu = 1.3;
        for (double a : new double[] {0.01, 0.2, 0.5}) {
            double b = org.dpopt.accounting.GaussianMechanism.normalCdf(GaussianDp.normalQuantile(1 - a) - mu);
            assertEquals(mu, GaussianDp.mu(a, b), 1e-9);
        }
        assertEquals(0, GaussianDp.mu(0.6, 0.5));
        assertEquals(Double.POSITIVE_INFINITY, GaussianDp.mu(0, 0.5));
    }

    @Test
    void epsilonAndMuAreInverse() {
        for (double eps : new double[] {0.5, 1, 4, 8}) {
            double mu = GaussianDp.muOf(eps, 1e-5);
            assertEquals(eps, GaussianDp.epsilon(mu, 1e-5), 1e-6 * eps);
            assertTrue(GaussianDp.delta(mu, eps) <= 1e-5 * (1 + 1e-6));
        }
        // mu = 1 at delta = 1e-5: Φ(−ε + 1/2) − e^ε Φ(−ε − 1/2) = 1e-5 at ε ≈ 4.35
        double e = GaussianDp.epsilon(1, 1e-5);
        assertTrue(e > 4.2 && e < 4.5, "eps(mu=1) = " + e);
    }
}
