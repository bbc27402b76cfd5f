package org.dpopt.optim.mirror;

import static org.junit.jupiter.api.Assertions.assertTrue;

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
 * Slow validation (mvn -Pvalidation test): the log-log slope of E_{t*}[near-stationarity] (mean over
 * 12 evenly spaced rounds, then over 8 seeds) against n on the Cauchy problem of
 * validation/mirror-descent.md, p ∈ {1, 2}, ε = 32, n ∈ {4k, 16k, 64k}. Theorem 20 predicts −1/4 in
 * the statistical regime (an upper bound; faster decay is allowed up to the privacy-regime −1/2).
 * Fixed seeds, so the outcome is deterministic. Measured: −0.38 (p = 1), −0.32 (p = 2). With the
 * single random output instead of the 12-round mean, p = 1 gave −0.76 at these seeds: that estimator
 * is too noisy for a slope test, which is why the mean over rounds is used.
 */
@Tag("slow")
class ProximallyGuidedMirrorDescentSlopeTest {

    @Test
    void nearStationaritySlopeIsCloseToMinusOneQuarter() {
        int[] ns = {4_000, 16_000, 64_000};
        for (double p : new double[] {1, 2}) {
            double[] st = new double[ns.length];
            for (int k = 0; k < ns.length; k++) {
                for (int r = 0; r < 8; r++) {
                    DMatrixRMaj wStar = Synthetic.plantedVector(10, 1, Rngs.seeded(300 + r));
                    Problem pr = Problem.of(Synthetic.linearRegression(ns[k], wStar, 0.3, Rngs.seeded(400 + r)).data(),
                            CauchyLoss.INSTANCE, ConvexSets.l2Ball(2));
                    st[k] += ProximallyGuidedMirrorDescent.builder().p(p).diagnosticIterations(150).trajectoryPoints(12)
                            .diagnostics(true).build().optimize(pr, PrivacyBudget.of(32, 1e-5), Rngs.seeded(500 + r))
                            .nonPrivateDiagnostics().get(Diagnostic.EXPECTED_NEAR_STATIONARITY) / 8;
                }
            }
            double slope = Math.log(st[2] / st[0]) / Math.log((double) ns[2] / ns[0]);
            System.out.println("p=" + p + " stationarity " + java.util.Arrays.toString(st) + " slope " + slope);
            assertTrue(slope < -0.15 && slope > -0.5, "p=" + p + " slope " + slope);
        }
    }
}
