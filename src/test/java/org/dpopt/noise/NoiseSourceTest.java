package org.dpopt.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpopt.accounting.NeighboringRelation;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class NoiseSourceTest {

    // ------------------------------------------------------------------ mode selection

    @Test
    void seededGeneratorGivesSeededNoiseAndSecureGivesSecure() {
        NoiseSource seeded = NoiseSource.of(Rngs.seeded(5));
        assertFalse(seeded.isSecure());
        assertEquals(NoiseSource.SEEDED_DESCRIPTION, seeded.description());
        assertInstanceOf(SeededNoise.class, seeded);
        NoiseSource secure = NoiseSource.of(Rngs.secure());
        assertTrue(secure.isSecure());
        assertEquals("secure", secure.description());
        assertInstanceOf(SecureNoise.class, secure);
        // any other provider, even a cryptographic one wrapped by hand, is research mode
        assertFalse(NoiseSource.of(org.apache.commons.rng.simple.JDKRandomWrapper.class.cast(
                new org.apache.commons.rng.simple.JDKRandomWrapper(new java.security.SecureRandom()))).isSecure());
        assertInstanceOf(SecureRng.class, Rngs.secure());
        assertThrows(IllegalArgumentException.class, () -> NoiseSource.of(null));
    }

    @Test
    void twoSecureSourcesDrawDifferentNoise() {
        DMatrixRMaj a = new DMatrixRMaj(4, 1);
        DMatrixRMaj b = new DMatrixRMaj(4, 1);
        NoiseSource.of(Rngs.secure()).addGaussian(a, 1, 1);
        NoiseSource.of(Rngs.secure()).addGaussian(b, 1, 1);
        assertNotEquals(a.data[0], b.data[0]);
    }

    // ------------------------------------------------------------------ seeded mode = today's draws

    @Test
    void seededNoiseReproducesTheZigguratDrawsBitForBit() {
        for (long seed : new long[] {1, 42, 977}) {
            NoiseSource ns = NoiseSource.of(Rngs.seeded(seed));
            UniformRandomProvider ref = Rngs.seeded(seed);
            ZigguratSampler.NormalizedGaussian z = ZigguratSampler.NormalizedGaussian.of(ref);
            DMatrixRMaj v = new DMatrixRMaj(7, 1);
            for (int j = 0; j < 7; j++) {
                v.data[j] = j * 0.25;
            }
            ns.addGaussian(v, 0.5, 1.3);
            for (int j = 0; j < 7; j++) {
                assertEquals(j * 0.25 + (1.3 * 0.5) * z.sample(), v.data[j], 0.0);
            }
            DMatrixRMaj o = new DMatrixRMaj(3, 1);
            ns.addObjectiveNoise(o, 2.5);
            for (int j = 0; j < 3; j++) {
                assertEquals(2.5 * z.sample(), o.data[j], 0.0);
            }
            assertEquals(z.sample(), ns.standardNormal(), 0.0);
            // report-noisy-max draws from the same generator as ReportNoisyMax.select
            ReportNoisyMax rnm = new ReportNoisyMax(0.3, 1.0, false, NeighboringRelation.REPLACE_ONE);
            double[] scores = {0.1, 0.9, 0.4, 0.5};
            for (int k = 0; k < 50; k++) {
                assertEquals(rnm.select(scores, 4, ref, -1.0), ns.reportNoisyMax(rnm, scores, 4, -1.0));
            }
            assertEquals(0.0, ns.implementationDelta(1.0), 0.0);
            assertEquals(0.0, ns.objectiveNoiseGrid(3.0), 0.0);
        }
    }

    @Test
    void seededLaplaceUsesTheTwoExponentialSampler() {
        NoiseSource ns = NoiseSource.of(Rngs.seeded(3));
        LaplaceNoise ref = LaplaceNoise.of(Rngs.seeded(3));
        DMatrixRMaj v = new DMatrixRMaj(5, 1);
        ns.addLaplace(v, 0.5, 2.0);
        for (int j = 0; j < 5; j++) {
            assertEquals(ref.sample(1.0), v.data[j], 0.0);
        }
    }

    // ------------------------------------------------------------------ secure mode, public API

    private static NoiseSource secureFixed(int key) {
        return NoiseSource.of(ExactSamplerTest.fixed(key));
    }

    @Test
    void secureGaussianReleaseIsOnTheGridOfTheRoundedUpSigma() {
        NoiseSource ns = secureFixed(11);
        assertTrue(ns.isSecure());
        double delta = 0.1;
        double z = 3.0; // 0.1·3 = 0.30000000000000004 in double, exact product 0.3000000000000000166…
        double sigma = SecureNoise.productRoundedUp(z, delta);
        assertTrue(new BigDecimal(sigma).compareTo(new BigDecimal(z).multiply(new BigDecimal(delta))) >= 0);
        double gamma = SecureNoise.releaseGrid(sigma);
        assertEquals(Math.scalb(1.0, Math.getExponent(sigma) - 24), gamma, 0.0);
        DMatrixRMaj v = new DMatrixRMaj(20_000, 1);
        java.util.Random r = new java.util.Random(1);
        for (int j = 0; j < v.data.length; j++) {
            v.data[j] = r.nextGaussian() * 10; // arbitrary low-order bits
        }
        double[] before = v.data.clone();
        ns.addGaussian(v, delta, z);
        double s2 = 0;
        for (int j = 0; j < v.data.length; j++) {
            assertEquals(0.0, Math.IEEEremainder(v.data[j], gamma), 0.0, "coordinate " + j + " off the grid");
            double e = v.data[j] - before[j];
            s2 += e * e;
        }
        // variance within 6 sd (sd of the mean square = σ²√(2/n) = 1e-2 σ²): false failure < 2e-9
        assertEquals(sigma * sigma, s2 / v.data.length, 6 * sigma * sigma * Math.sqrt(2.0 / v.data.length));
        assertEquals(20_000, ((SecureNoise) ns).draws(), 0);
    }

    @Test
    void secureObjectiveNoiseIsGaussianOnTheFineGrid() {
        NoiseSource ns = secureFixed(12);
        double sigma = 0.037;
        double grid = ns.objectiveNoiseGrid(sigma);
        assertEquals(Math.scalb(1.0, Math.getExponent(sigma) - 40), grid, 0.0);
        DMatrixRMaj o = new DMatrixRMaj(50_000, 1);
        ns.addObjectiveNoise(o, sigma);
        double[] zs = new double[o.data.length];
        for (int j = 0; j < zs.length; j++) {
            assertEquals(0.0, Math.IEEEremainder(o.data[j], grid), 0.0);
            zs[j] = o.data[j] / sigma;
        }
        // KS at α = 1e-7 (false failure 1e-7)
        NormalDistribution std = new NormalDistribution(0, 1);
        assertTrue(ExactSamplerTest.ks(zs, std::cumulativeProbability) < ExactSamplerTest.ksCritical(zs.length, 1e-7));
    }

    @Test
    void secureLaplaceReleaseHasTheRecordedScale() {
        NoiseSource ns = secureFixed(13);
        DMatrixRMaj v = new DMatrixRMaj(100_000, 1);
        ns.addLaplace(v, 0.25, 2.0); // b = 0.5
        double b = SecureNoise.productRoundedUp(2.0, 0.25);
        double gamma = SecureNoise.releaseGrid(b);
        double[] xs = new double[v.data.length];
        for (int j = 0; j < xs.length; j++) {
            assertEquals(0.0, Math.IEEEremainder(v.data[j], gamma), 0.0);
            xs[j] = v.data[j] / b;
        }
        assertTrue(ExactSamplerTest.ks(xs, ExactSamplerTest::laplaceCdf) < ExactSamplerTest.ksCritical(xs.length, 1e-7));
    }

    @Test
    void secureReportNoisyMaxHasTheSeededMechanismsLaw() {
        // same closed form as the seeded RNM test: b = 2Δ/ε0 = 0.5, gap 1 ⇒ 0.8646647; n = 4e5, 5 sd
        NoiseSource ns = secureFixed(14);
        ReportNoisyMax rnm = new ReportNoisyMax(0.25, 1.0, false, NeighboringRelation.REPLACE_ONE);
        double[] s = {0.0, 1.0};
        int n = 400_000;
        int wins = 0;
        int minWins = 0;
        for (int k = 0; k < n; k++) {
            wins += ns.reportNoisyMax(rnm, s, 2, 1.0);
            minWins += 1 - ns.reportNoisyMax(rnm, s, 2, -1.0);
        }
        assertEquals(0.8646647, (double) wins / n, 2.7e-3);
        assertEquals(0.8646647, (double) minWins / n, 2.7e-3);
    }

    @Test
    void secureScaleIsNeverBelowTheMechanismsScaleInExactArithmetic() {
        java.util.Random r = new java.util.Random(2);
        for (int i = 0; i < 2000; i++) {
            double delta = Math.exp(r.nextGaussian() * 3);
            double eps = Math.exp(r.nextGaussian() * 2);
            boolean mono = r.nextBoolean();
            ReportNoisyMax rnm = new ReportNoisyMax(delta, eps, mono, NeighboringRelation.REPLACE_ONE);
            double b = SecureNoise.secureScale(rnm);
            BigDecimal lhs = new BigDecimal(b).multiply(new BigDecimal(eps));
            BigDecimal rhs = new BigDecimal(delta).multiply(BigDecimal.valueOf(mono ? 1 : 2));
            assertTrue(lhs.compareTo(rhs) >= 0);
            assertTrue(b <= Math.nextUp(Math.nextUp(rnm.scale())));
            double p = SecureNoise.productRoundedUp(delta, eps);
            BigDecimal exact = new BigDecimal(delta).multiply(new BigDecimal(eps));
            assertTrue(new BigDecimal(p).compareTo(exact) >= 0);
            assertTrue(new BigDecimal(Math.nextDown(p)).compareTo(exact) < 0);
        }
    }

    @Test
    void secureModeRefusesWhatItCannotReleaseSafely() {
        NoiseSource ns = secureFixed(15);
        DMatrixRMaj v = new DMatrixRMaj(3, 1);
        v.data[1] = Double.NaN;
        assertThrows(IllegalArgumentException.class, () -> ns.addGaussian(v, 1, 1));
        v.data[1] = Double.POSITIVE_INFINITY;
        assertThrows(IllegalArgumentException.class, () -> ns.addLaplace(v, 1, 1));
        DMatrixRMaj w = new DMatrixRMaj(3, 1);
        assertThrows(IllegalArgumentException.class, () -> ns.addGaussian(w, 1e-300, 1e-300));
        assertThrows(IllegalArgumentException.class, () -> ns.addGaussian(w, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> ns.addGaussian(w, 1, -1));
        assertThrows(IllegalArgumentException.class, () -> ns.addObjectiveNoise(w, -1));
        ReportNoisyMax rnm = new ReportNoisyMax(1, 1, false, NeighboringRelation.REPLACE_ONE);
        assertThrows(IllegalArgumentException.class, () -> ns.reportNoisyMax(rnm, new double[] {0, Double.NaN}, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> ns.reportNoisyMax(rnm, new double[2], 3, 1));
        assertThrows(IllegalArgumentException.class, () -> ns.reportNoisyMax(rnm, new double[2], 2, 0.5));
        assertThrows(IllegalArgumentException.class, () -> ns.implementationDelta(-1));
        // z = 0: nothing added
        ns.addGaussian(w, 1, 0);
        assertEquals(0.0, w.data[0], 0.0);
    }

    @Test
    void implementationDeltaAccumulatesOverReleasedDraws() {
        NoiseSource ns = secureFixed(16);
        assertEquals(0.0, ns.implementationDelta(1.0), 0.0);
        ns.addGaussian(new DMatrixRMaj(10, 1), 1, 1);
        ns.reportNoisyMax(new ReportNoisyMax(1, 1, false, NeighboringRelation.REPLACE_ONE), new double[5], 5, 1);
        double d = ns.implementationDelta(1.0);
        assertEquals((1 + Math.E) * 15 * 0x1p-1000, d, 1e-12 * d);
        assertTrue(d > 0 && d < 1e-290);
        assertEquals(1.0, ns.implementationDelta(Double.POSITIVE_INFINITY), 0.0);
    }

    @Test
    void secureStandardNormalIsStandard() {
        NoiseSource ns = secureFixed(17);
        int n = 200_000;
        double s = 0;
        double s2 = 0;
        for (int i = 0; i < n; i++) {
            double x = ns.standardNormal();
            s += x;
            s2 += x * x;
        }
        // 6-sd bands: mean sd 2.2e-3, second moment sd 3.2e-3
        assertEquals(0, s / n, 0.0134);
        assertEquals(1, s2 / n, 0.019);
    }
}
