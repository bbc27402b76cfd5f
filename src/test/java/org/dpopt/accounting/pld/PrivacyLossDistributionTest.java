package org.dpopt.accounting.pld;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.special.Erf;
import org.dpopt.accounting.GaussianMechanism;
import org.junit.jupiter.api.Test;

/** The PLD engine against closed forms (Gaussian, Laplace), brute force, and its own invariants. */
class PrivacyLossDistributionTest {

    private static final double H = 1e-4;

    @Test
    void normalTailMatchesCommonsMathToNearRoundoff() {
        for (double x = -8; x <= 37; x += 0.0137) {
            double ref = 0.5 * Erf.erfc(x / Math.sqrt(2));
            double got = NormalTail.upper(x);
            // both sides lose ~x² ulps in exp(−x²/2)
            assertEquals(ref, got, (1e-13 + 1e-15 * x * x) * ref, "x=" + x);
            assertEquals(NormalTail.lower(-x), got, 0.0);
        }
        // 40-digit references (mpmath 1.x, erfc(x/√2)/2)
        assertEquals(4.637123918851087049671800330951965516899e-60, NormalTail.upper(16.303800000000074), 1e-13 * 4.6e-60);
        assertEquals(4.906713927148187059533809256580190471966e-198, NormalTail.upper(30), 3e-13 * 4.9e-198);
        assertEquals(0.0, NormalTail.upper(40));
        assertEquals(1.0, NormalTail.upper(-40));
    }

    @Test
    void singleGaussianBracketsExactCurve() {
        // the grid does not contain these ε exactly, so each rounding is exercised off-grid too
        PrivacyLossDistribution ctd = PrivacyLossDistributions.gaussian(2.0, Direction.REMOVE, H, Rounding.CONNECT_THE_DOTS);
        PrivacyLossDistribution ceil = PrivacyLossDistributions.gaussian(2.0, Direction.REMOVE, H, Rounding.CEIL);
        PrivacyLossDistribution floor = PrivacyLossDistributions.gaussian(2.0, Direction.REMOVE, H, Rounding.FLOOR);
        for (double eps : new double[] {-0.7, 0, 0.33333, 1, 2.000051, 4}) {
            double exact = gaussianDelta(eps, 2.0);
            assertTrue(ctd.delta(eps) >= exact * (1 - 1e-12), "ctd below exact at " + eps);
            assertTrue(ceil.delta(eps) >= ctd.delta(eps) * (1 - 1e-12), "ceil tighter than ctd at " + eps);
            assertTrue(floor.delta(eps) <= exact * (1 + 1e-12), "floor above exact at " + eps);
            // connect-the-dots is second-order accurate: relative error far below h
            assertEquals(exact, ctd.delta(eps), 1e-7 * exact + 1e-18, "eps=" + eps);
        }
    }

    /** Balle–Wang curve for any real ε (GaussianMechanism.delta accepts ε ≥ 0 only). */
    private static double gaussianDelta(double eps, double z) {
        if (eps >= 0) {
            return GaussianMechanism.delta(eps, z);
        }
        return GaussianMechanism.normalCdf(0.5 / z - eps * z) - Math.exp(eps) * GaussianMechanism.normalCdf(-0.5 / z - eps * z);
    }

    @Test
    void gaussianSelfCompositionEqualsOneGaussianWithScaledNoise() {
        double z = 4.0;
        long t = 64; // equivalent to one Gaussian with z/√T = 0.5
        PrivacyLossDistribution up = PrivacyLossDistributions.gaussian(z, Direction.ADD, H, Rounding.CONNECT_THE_DOTS)
                .selfCompose(t);
        PrivacyLossDistribution low = PrivacyLossDistributions.gaussian(z, Direction.ADD, H, Rounding.FLOOR)
                .selfCompose(t);
        for (double eps : new double[] {0, 0.5, 1, 2, 5}) {
            double exact = GaussianMechanism.delta(eps, z / Math.sqrt(t));
            assertTrue(up.delta(eps) >= exact * (1 - 1e-9), "upper below exact at " + eps);
            assertTrue(low.delta(eps) <= exact * (1 + 1e-9), "lower above exact at " + eps);
            assertEquals(exact, up.delta(eps), 2e-6 * exact + 1e-14, "eps=" + eps);
        }
        double exactEps = GaussianMechanism.epsilon(1e-5, z / Math.sqrt(t));
        assertTrue(up.epsilon(1e-5) >= exactEps - 1e-9);
        assertTrue(low.epsilon(1e-5) <= exactEps + 1e-9);
        assertEquals(exactEps, up.epsilon(1e-5), 1e-5 * exactEps);
        // optimistic drift is at most T·h
        assertTrue(exactEps - low.epsilon(1e-5) <= t * H);
    }

    @Test
    void laplaceMatchesPureEpsilonCurve() {
        // single Laplace, b = 0.5 (ε0 = 2): δ(ε) = 1 − e^{(ε − 2)/2} on [−2, 2], 0 beyond
        double b = 0.5;
        PrivacyLossDistribution up = PrivacyLossDistributions.laplace(b, Direction.REMOVE, H, Rounding.CONNECT_THE_DOTS);
        PrivacyLossDistribution low = PrivacyLossDistributions.laplace(b, Direction.REMOVE, H, Rounding.FLOOR);
        for (double eps : new double[] {0, 0.3, 1, 1.99, 2, 2.5}) {
            double exact = eps >= 2 ? 0 : -Math.expm1((eps - 2) / 2);
            assertTrue(up.delta(eps) >= exact - 1e-15);
            assertTrue(low.delta(eps) <= exact + 1e-15);
            assertEquals(exact, up.delta(eps), 1e-8);
        }
        // pure DP: the ε for any tiny δ is the Laplace ε0 = 1/b (up to one grid step)
        assertEquals(2.0, up.epsilon(1e-12), H);
        // 3-fold: δ(3·ε0) = 0, so ε(δ) ≤ 6 for every δ (basic composition)
        PrivacyLossDistribution three = up.selfCompose(3);
        assertTrue(three.epsilon(1e-15) <= 6 + 3 * H);
        assertTrue(three.epsilon(1e-15) > 5);
    }

    @Test
    void fftSelfCompositionEqualsRepeatedDirectComposition() {
        PrivacyLossDistribution p = PrivacyLossDistributions.epsilonDelta(0.37, 1e-4, 1e-2, Rounding.CEIL);
        PrivacyLossDistribution direct = p;
        for (int i = 1; i < 7; i++) {
            direct = direct.compose(p);
        }
        PrivacyLossDistribution fft = p.selfCompose(7);
        for (double eps : new double[] {0, 0.4, 1, 2.5}) {
            assertEquals(direct.delta(eps), fft.delta(eps), 1e-12, "eps=" + eps);
        }
        assertEquals(direct.infinityMass(), fft.infinityMass(), 2e-15);
        assertEquals(1 - Math.pow(1 - 1e-4, 7), fft.infinityMass(), 2e-15);
    }

    @Test
    void deltaIsTheHockeyStickSumOfThePmf() {
        double[] probs = {0.2, 0.3, 0.4};
        PrivacyLossDistribution p = PrivacyLossDistribution.fromPmf(0.5, -1, probs, 0.1);
        // losses −0.5, 0, 0.5; at ε = 0.1 only 0.5 counts
        assertEquals(0.4 * (1 - Math.exp(0.1 - 0.5)) + 0.1, p.delta(0.1), 1e-15);
        assertEquals(0.1, p.delta(Double.POSITIVE_INFINITY), 0);
        // negative ε: −0.5 does not count, 0 and 0.5 do
        assertEquals(0.3 * -Math.expm1(-0.2) + 0.4 * -Math.expm1(-0.7) + 0.1, p.delta(-0.2), 1e-15);
        // ε(δ) is the exact inverse of δ(ε) for the discrete measure
        for (double d : new double[] {0.11, 0.15, 0.2, 0.25}) {
            double e = p.epsilon(d);
            assertEquals(d, p.delta(e), 1e-12, "delta=" + d);
        }
        assertEquals(Double.POSITIVE_INFINITY, p.epsilon(0.05));
        assertEquals(0.0, p.epsilon(0.3)); // δ(0) = 0.4(1 − e^{−1/2}) + 0.1 ≈ 0.257 < 0.3
    }

    @Test
    void composeMatchesBruteForceAndTracksInfinity() {
        PrivacyLossDistribution a = PrivacyLossDistribution.fromPmf(0.5, 0, new double[] {0.5, 0.4}, 0.1);
        PrivacyLossDistribution b = PrivacyLossDistribution.fromPmf(0.5, -2, new double[] {0.7, 0.0, 0.1}, 0.2);
        PrivacyLossDistribution c = a.compose(b);
        // finite part: convolution; infinity: 1 − 0.9·0.8
        assertEquals(1 - 0.9 * 0.8, c.infinityMass(), 1e-15);
        double brute = 0;
        double[] la = {0, 0.5};
        double[] pa = {0.5, 0.4};
        double[] lb = {-1, -0.5, 0};
        double[] pb = {0.7, 0.0, 0.1};
        double eps = -0.3;
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 3; j++) {
                double l = la[i] + lb[j];
                if (l > eps) {
                    brute += pa[i] * pb[j] * -Math.expm1(eps - l);
                }
            }
        }
        // the composed curve is an upper bound (every rounding charged upward), within 1e-12 of exact
        assertTrue(c.delta(eps) >= brute + c.infinityMass());
        assertEquals(brute + c.infinityMass(), c.delta(eps), 1e-12);
        // the optimistic mode brackets it from below
        PrivacyLossDistribution ao = PrivacyLossDistribution.fromPmf(0.5, 0, new double[] {0.5, 0.4}, 0.1, false);
        PrivacyLossDistribution bo = PrivacyLossDistribution.fromPmf(0.5, -2, new double[] {0.7, 0.0, 0.1}, 0.2, false);
        double low = ao.compose(bo).delta(eps);
        assertTrue(low <= brute + c.infinityMass());
        assertEquals(brute + c.infinityMass(), low, 1e-12);
    }

    @Test
    void largeSelfCompositionStaysConsistent() {
        // T = 10^6 of a fine ±ε0 mechanism: compare with the exact binomial law of the sum of ±ε0
        double e0 = 0.001;
        PrivacyLossDistribution p = PrivacyLossDistributions.epsilonDelta(e0, 0, e0, Rounding.CEIL);
        long t = 1_000_000;
        PrivacyLossDistribution pt = p.selfCompose(t);
        // the sum is e0·(2K − T), K ~ Bin(T, e^{e0}/(1+e^{e0})); compare one δ value by normal approximation
        // loosely and check monotonicity and range exactly
        double d1 = pt.delta(1.0);
        double d2 = pt.delta(2.0);
        assertTrue(d1 > d2 && d2 > 0 && d1 < 1);
        double mean = t * e0 * Math.tanh(e0 / 2);
        double sd = Math.sqrt(t) * e0;
        double approx = GaussianMechanism.delta(1.0, 1 / sd); // Gaussian PLD with mean sd²/2 ≈ mean
        assertEquals(mean, sd * sd / 2, 1e-3 * mean);
        assertEquals(approx, d1, 0.02 * approx);
    }

    @Test
    void poissonGaussianLandsInsideSpecBrackets() {
        // theory-notes/test-oracles.md §3 (independent oracle, h = 2e-5): q = 0.01, σ = 1, T = 1000
        double upEps = 0;
        double lowEps = 0;
        double[] upDelta = new double[3];
        double[] lowDelta = new double[3];
        double[] eps = {0.5, 1, 2};
        for (Direction d : Direction.values()) {
            PrivacyLossDistribution up = PrivacyLossDistributions.poissonGaussian(0.01, 1, d, H, Rounding.CONNECT_THE_DOTS)
                    .selfCompose(1000);
            PrivacyLossDistribution low = PrivacyLossDistributions.poissonGaussian(0.01, 1, d, H, Rounding.FLOOR)
                    .selfCompose(1000);
            upEps = Math.max(upEps, up.epsilon(1e-5));
            lowEps = Math.max(lowEps, low.epsilon(1e-5));
            for (int i = 0; i < 3; i++) {
                upDelta[i] = Math.max(upDelta[i], up.delta(eps[i]));
                lowDelta[i] = Math.max(lowDelta[i], low.delta(eps[i]));
            }
        }
        assertTrue(upEps >= 1.8181 && upEps <= 1.8383, "eps " + upEps);
        assertTrue(lowEps <= upEps && lowEps >= upEps - 1000 * H);
        double[][] brackets = {{2.9317e-2, 3.1861e-2}, {2.4667e-3, 2.7659e-3}, {2.4634e-6, 2.8839e-6}};
        for (int i = 0; i < 3; i++) {
            assertTrue(upDelta[i] >= brackets[i][0] && upDelta[i] <= brackets[i][1], "delta(" + eps[i] + ") " + upDelta[i]);
            assertTrue(lowDelta[i] <= upDelta[i]);
        }
    }

    @Test
    void customLossModelsUseTheSameDiscretization() {
        // a user-supplied model (here the Gaussian one) goes through the public extension point
        LossModel g = LossModels.gaussian(1.5);
        PrivacyLossDistribution viaModel = PrivacyLossDistributions.fromLossModel(g, H, Rounding.CONNECT_THE_DOTS);
        PrivacyLossDistribution direct = PrivacyLossDistributions.gaussian(1.5, Direction.ADD, H, Rounding.CONNECT_THE_DOTS);
        assertEquals(direct.delta(0.7), viaModel.delta(0.7), 0.0);
        assertThrows(IllegalArgumentException.class, () -> PrivacyLossDistributions.fromLossModel(null, H, Rounding.CEIL));
    }

    @Test
    void refusesBadInput() {
        assertThrows(IllegalArgumentException.class, () -> PrivacyLossDistribution.fromPmf(0, 0, new double[] {1}, 0));
        assertThrows(IllegalArgumentException.class, () -> PrivacyLossDistribution.fromPmf(1e-3, 0, new double[] {}, 0));
        assertThrows(IllegalArgumentException.class, () -> PrivacyLossDistribution.fromPmf(1e-3, 0, new double[] {-0.1, 1}, 0));
        assertThrows(IllegalArgumentException.class, () -> PrivacyLossDistribution.fromPmf(1e-3, 0, new double[] {0.6, 0.6}, 0));
        assertThrows(IllegalArgumentException.class, () -> PrivacyLossDistribution.fromPmf(1e-3, 0, new double[] {0.5}, 1.5));
        assertThrows(IllegalArgumentException.class, () -> PrivacyLossDistribution.fromPmf(1e-3, 0, new double[] {Double.NaN}, 0));
        PrivacyLossDistribution a = PrivacyLossDistribution.fromPmf(1e-3, 0, new double[] {1}, 0);
        PrivacyLossDistribution b = PrivacyLossDistribution.fromPmf(2e-3, 0, new double[] {1}, 0);
        PrivacyLossDistribution c = PrivacyLossDistribution.fromPmf(1e-3, 0, new double[] {1}, 0, false);
        assertThrows(IllegalArgumentException.class, () -> a.compose(b));
        assertThrows(IllegalArgumentException.class, () -> a.compose(c));
        assertThrows(IllegalArgumentException.class, () -> a.selfCompose(0));
        assertThrows(IllegalArgumentException.class, () -> a.epsilon(0));
        assertThrows(IllegalArgumentException.class, () -> a.epsilon(1));
        assertThrows(IllegalArgumentException.class, () -> a.delta(Double.NaN));
        assertThrows(IllegalArgumentException.class,
                () -> PrivacyLossDistributions.gaussian(-1, Direction.ADD, H, Rounding.FLOOR));
        assertThrows(IllegalArgumentException.class,
                () -> PrivacyLossDistributions.poissonGaussian(1.5, 1, Direction.ADD, H, Rounding.FLOOR));
        assertThrows(IllegalArgumentException.class,
                () -> PrivacyLossDistributions.poissonGaussian(0.1, 1, Direction.ADD, 0, Rounding.FLOOR));
        assertThrows(IllegalArgumentException.class,
                () -> PrivacyLossDistributions.epsilonDelta(1, 1, H, Rounding.FLOOR));
        assertThrows(PldGridTooLargeException.class,
                () -> PrivacyLossDistributions.gaussian(1e-3, Direction.ADD, 1e-6, Rounding.FLOOR));
    }
}
