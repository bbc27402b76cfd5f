package org.dpopt.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpopt.linalg.Norms;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Mirror map identities against closed forms and finite differences (deterministic seeds). */
class MirrorMapTest {

    private static DMatrixRMaj gaussian(int d, double scale, UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        DMatrixRMaj v = new DMatrixRMaj(d, 1);
        for (int j = 0; j < d; j++) {
            v.data[j] = scale * g.sample();
        }
        return v;
    }

    @ParameterizedTest
    @CsvSource({"1, 5", "1, 200", "1.3, 50", "1.7, 10", "2, 7"})
    void conjugateGradientInvertsGradient(double p, int d) {
        MirrorMap m = MirrorMap.lp(p, d);
        UniformRandomProvider rng = Rngs.seeded(11);
        DMatrixRMaj v = gaussian(d, 0.7, rng);
        DMatrixRMaj theta = new DMatrixRMaj(d, 1);
        DMatrixRMaj back = new DMatrixRMaj(d, 1);
        m.gradient(v, theta);
        m.conjugateGradient(theta, back);
        for (int j = 0; j < d; j++) {
            assertEquals(v.data[j], back.data[j], 1e-10 * (1 + Math.abs(v.data[j])));
        }
        // and the other way round
        DMatrixRMaj t2 = gaussian(d, 1.3, rng);
        m.conjugateGradient(t2, back);
        m.gradient(back, theta);
        for (int j = 0; j < d; j++) {
            assertEquals(t2.data[j], theta.data[j], 1e-9 * (1 + Math.abs(t2.data[j])));
        }
    }

    @ParameterizedTest
    @CsvSource({"1, 30", "1.5, 12", "2, 6"})
    void gradientMatchesFiniteDifferencesAndFenchelYoung(double p, int d) {
        MirrorMap m = MirrorMap.lp(p, d);
        DMatrixRMaj v = gaussian(d, 1.0, Rngs.seeded(3));
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        m.gradient(v, g);
        double h = 1e-6;
        for (int j = 0; j < d; j++) {
            double x = v.data[j];
            v.data[j] = x + h;
            double up = m.value(v);
            v.data[j] = x - h;
            double dn = m.value(v);
            v.data[j] = x;
            assertEquals((up - dn) / (2 * h), g.data[j], 1e-6 * (1 + Math.abs(g.data[j])));
        }
        // Fenchel–Young with equality at θ = ∇ψ(v): ψ(v) + ψ*(θ) = ⟨θ, v⟩
        double inner = 0;
        for (int j = 0; j < d; j++) {
            inner += g.data[j] * v.data[j];
        }
        assertEquals(inner, m.value(v) + m.conjugateValue(g), 1e-10 * (1 + Math.abs(inner)));
    }

    @ParameterizedTest
    @CsvSource({"1, 20", "1.4, 8", "2, 5"})
    void bregmanIsAtLeastHalfSquaredNorm(double p, int d) {
        // 1-strong convexity of ψ w.r.t. ‖·‖_p̃: D_ψ(u, w) ≥ ½‖u − w‖²_p̃; for p̃ = 2 with equality.
        MirrorMap m = MirrorMap.lp(p, d);
        UniformRandomProvider rng = Rngs.seeded(5);
        DMatrixRMaj work = new DMatrixRMaj(d, 1);
        double minRatio = Double.POSITIVE_INFINITY;
        for (int k = 0; k < 2000; k++) {
            DMatrixRMaj u = gaussian(d, 1.0, rng);
            DMatrixRMaj w = gaussian(d, k % 2 == 0 ? 1.0 : 0.01, rng);
            double dist = m.distance(u, w);
            double ratio = m.bregman(u, w, work) / (0.5 * dist * dist);
            minRatio = Math.min(minRatio, ratio);
        }
        assertTrue(minRatio >= 1 - 1e-9, "modulus " + minRatio);
        if (m.effectiveP() == 2) {
            assertEquals(1.0, minRatio, 1e-9);
        }
    }

    @Test
    void effectiveExponentAndKappa() {
        MirrorMap m = MirrorMap.lp(1, 1000);
        assertEquals(1 + 1 / Math.log(1000), m.effectiveP(), 1e-12);
        assertEquals(Math.log(1000), m.kappa(), 1e-9);
        assertEquals(Norms.effectiveExponent(1.2, 1000), MirrorMap.lp(1.2, 1000).effectiveP());
        assertEquals(1.0, MirrorMap.euclidean(4).kappa());
    }

    @Test
    void ballProjectionIsRadialAndMinimizesBregman() {
        for (double p : new double[] {1, 1.5, 2}) {
            int d = 6;
            MirrorMap m = MirrorMap.lp(p, d);
            UniformRandomProvider rng = Rngs.seeded(9);
            DMatrixRMaj c = gaussian(d, 0.3, rng);
            DMatrixRMaj y = gaussian(d, 2.0, rng);
            double r = 0.5;
            DMatrixRMaj proj = y.copy();
            double f = m.projectBall(c, r, proj);
            assertTrue(f < 1);
            assertEquals(r, m.distance(proj, c), 1e-12);
            // Bregman objective D_ψc(v, y) = ψ(v−c) − ψ(y−c) − ⟨∇ψ(y−c), v−y⟩ is no smaller at random
            // feasible points
            double best = shiftedBregman(m, c, proj, y);
            for (int k = 0; k < 3000; k++) {
                DMatrixRMaj v = gaussian(d, 1.0, rng);
                m.projectBall(c, r * rng.nextDouble(), v); // a feasible point
                assertTrue(shiftedBregman(m, c, v, y) >= best - 1e-12);
            }
            DMatrixRMaj inside = c.copy();
            inside.data[0] += 0.1;
            assertEquals(1.0, m.projectBall(c, r, inside));
        }
    }

    private static double shiftedBregman(MirrorMap m, DMatrixRMaj c, DMatrixRMaj v, DMatrixRMaj y) {
        int d = c.numRows;
        DMatrixRMaj a = new DMatrixRMaj(d, 1);
        DMatrixRMaj b = new DMatrixRMaj(d, 1);
        for (int j = 0; j < d; j++) {
            a.data[j] = v.data[j] - c.data[j];
            b.data[j] = y.data[j] - c.data[j];
        }
        return m.bregman(a, b, new DMatrixRMaj(d, 1));
    }

    @Test
    void gaussianDualNormBoundHoldsEmpirically() {
        // Jensen upper bound on E‖Z‖²_q̃; Monte Carlo with 4000 draws: the sample mean has relative sd
        // below 5%, and the bound is not tight (Jensen gap), so a 10% margin fails with negligible
        // probability.
        for (double p : new double[] {1, 2}) {
            int d = 50;
            MirrorMap m = MirrorMap.lp(p, d);
            UniformRandomProvider rng = Rngs.seeded(21);
            double s = 0;
            for (int k = 0; k < 4000; k++) {
                double n = m.dualNorm(gaussian(d, 1, rng));
                s += n * n;
            }
            double mean = s / 4000;
            assertTrue(mean <= 1.1 * m.gaussianDualNormSquaredBound(), p + ": " + mean);
            if (p == 2) {
                assertEquals(d, m.gaussianDualNormSquaredBound(), 1e-9);
                assertEquals(d, mean, 0.1 * d);
            }
        }
    }

    @Test
    void refusesBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> MirrorMap.lp(0.5, 3));
        assertThrows(IllegalArgumentException.class, () -> MirrorMap.lp(2.5, 3));
        assertThrows(IllegalArgumentException.class, () -> MirrorMap.lp(Double.NaN, 3));
        assertThrows(IllegalArgumentException.class, () -> MirrorMap.lp(1, 0));
        MirrorMap m = MirrorMap.lp(1, 3);
        assertThrows(IllegalArgumentException.class, () -> m.gradient(new DMatrixRMaj(4, 1), new DMatrixRMaj(3, 1)));
        DMatrixRMaj w = new DMatrixRMaj(3, 1);
        w.data[0] = 5;
        assertThrows(IllegalArgumentException.class, () -> m.projectBall(new DMatrixRMaj(3, 1), -1, w));
        assertEquals(5, w.data[0]); // unchanged
    }
}
