package org.dpopt.optim.mirror;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.stat.StatUtils;
import org.dpopt.data.Synthetic;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.CauchyLoss;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.PrivacyBudget;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Slow validation ({@code mvn -Pvalidation test}, about 40 s, hence {@code slow}): the log-log slope of
 * E_{t*}[near-stationarity] (mean over 12 evenly spaced rounds, then over 8 seeds) against n on the
 * Cauchy problem of validation/mirror-descent.md, p ∈ {1, 2}, ε = 32, n ∈ {4k, 16k, 64k}. Theorem 20
 * predicts at most −1/4 in the statistical regime (an upper bound; faster decay is allowed up to the
 * privacy-regime −1/2), so the test asserts a slope in (−0.5, −0.15).
 *
 * <p>Fixed seeds, so the outcome is deterministic. Measured: −0.383 (p = 1, standard error 0.027 by
 * the delta method over the 8 seeds) and −0.320 (p = 2, standard error 0.016); the nearest band edge
 * is 4.3 standard errors away for p = 1 and 10.6 for p = 2, so under other seeds a false failure has
 * probability below 2·10⁻⁵ (normal approximation; the standard error treats the two sizes as
 * independent, while their data share seeds and are positively correlated, so it is conservative).
 * With the single random output instead of the 12-round mean, p = 1 gave −0.76 at these seeds: that
 * estimator is too noisy for a slope test, which is why the mean over rounds is used.
 */
@Tag("slow")
class ProximallyGuidedMirrorDescentSlopeTest {

    private static final int SEEDS = 8;

    @Test
    void nearStationaritySlopeIsCloseToMinusOneQuarter() {
        int[] ns = {4_000, 16_000, 64_000};
        for (double p : new double[] {1, 2}) {
            double[][] st = new double[ns.length][SEEDS];
            for (int k = 0; k < ns.length; k++) {
                for (int r = 0; r < SEEDS; r++) {
                    DMatrixRMaj wStar = Synthetic.plantedVector(10, 1, Rngs.seeded(300 + r));
                    Problem pr = Problem.of(Synthetic.linearRegression(ns[k], wStar, 0.3, Rngs.seeded(400 + r)).data(),
                            CauchyLoss.INSTANCE, ConvexSets.l2Ball(2));
                    st[k][r] = ProximallyGuidedMirrorDescent.builder().p(p).diagnosticIterations(150).trajectoryPoints(12)
                            .diagnostics(true).build().optimize(pr, PrivacyBudget.of(32, 1e-5), Rngs.seeded(500 + r))
                            .nonPrivateDiagnostics().get(Diagnostic.EXPECTED_NEAR_STATIONARITY);
                }
            }
            double logRatio = Math.log((double) ns[2] / ns[0]);
            double slope = Math.log(mean(st[2]) / mean(st[0])) / logRatio;
            // delta method: se(log mean) ≈ se(mean)/mean, the two sizes treated as independent
            double se = Math.hypot(relativeSe(st[0]), relativeSe(st[2])) / logRatio;
            assertTrue(slope < -0.15 && slope > -0.5, "p=" + p + " slope " + slope + " (standard error " + se + ")");
        }
    }

    private static double mean(double[] v) {
        return StatUtils.mean(v);
    }

    private static double relativeSe(double[] v) {
        return Math.sqrt(StatUtils.variance(v) / v.length) / StatUtils.mean(v);
    }
}
