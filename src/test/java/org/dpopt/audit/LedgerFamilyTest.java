package org.dpopt.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.GaussianMechanism;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.junit.jupiter.api.Test;

/** Deterministic checks of the ledger test (no sampling). */
class LedgerFamilyTest {

    @Test
    void scalesEveryNoiseScale() {
        DpEvent e = new SelfComposedEvent(new PoissonSampledEvent(0.1, new GaussianEvent(2)), 7);
        assertEquals(new SelfComposedEvent(new PoissonSampledEvent(0.1, new GaussianEvent(3)), 7),
                LedgerFamily.scaled(e, 1.5));
        assertEquals(new SelfComposedEvent(new GaussianEvent(3), 7),
                LedgerFamily.scaled(new SelfComposedEvent(new PoissonSampledEvent(1, new GaussianEvent(2)), 7), 1.5));
        assertEquals(new EpsilonDeltaEvent(0.5, 1e-6), LedgerFamily.scaled(new EpsilonDeltaEvent(1, 1e-6), 2));
        assertEquals(new ParallelComposedEvent(List.of(new GaussianEvent(1), new GaussianEvent(4))),
                LedgerFamily.scaled(new ParallelComposedEvent(List.of(new GaussianEvent(0.5), new GaussianEvent(2))),
                        2));
    }

    private static double onCurve(double mu, double a) {
        return GaussianMechanism.normalCdf(GaussianDp.normalQuantile(1 - a) - mu);
    }

    @Test
    void gaussianLedgerIsTheGaussianDpTest() {
        // 4 Gaussian releases at z = 2: mu = sqrt(4)/2 = 1
        DpEvent ledger = new SelfComposedEvent(new GaussianEvent(2), 4);
        PldAccountant pld = new PldAccountant();
        LedgerFamily f = new LedgerFamily(ledger, pld, pld, 1e-5);
        assertEquals(GaussianDp.epsilon(1, 1e-5), f.claimedEpsilon(), 1e-6);
        for (double a : new double[] {0.05, 0.3}) {
            LedgerFamily.Result weaker = f.test(a, onCurve(0.8, a));
            assertTrue(weaker.consistent());
            // the point lies on G_0.8, i.e. on the curve of scale 1/0.8 = 1.25; the grid's slack keeps s* >= it
            assertTrue(weaker.scaleUpper() >= 1.25 && weaker.scaleUpper() < 1.25 * 1.03, "s* = " + weaker.scaleUpper());
            assertTrue(weaker.epsilon() <= GaussianDp.epsilon(0.8, 1e-5) + 1e-9);
            LedgerFamily.Result stronger = f.test(a, onCurve(1.2, a));
            assertFalse(stronger.consistent());
            assertTrue(stronger.epsilon() > f.claimedEpsilon());
            assertTrue(stronger.epsilon() <= GaussianDp.epsilon(1.2, 1e-5) + 1e-9);
        }
    }

    @Test
    void sampledLedgerWithAnUpperBoundCurve() {
        DpEvent ledger = new SelfComposedEvent(new PoissonSampledEvent(0.5, new GaussianEvent(1.5)), 10);
        PldAccountant pld = new PldAccountant();
        LedgerFamily exact = new LedgerFamily(ledger, new RdpAccountant(), pld, 1e-5);
        // the claimed curve itself (from the RDP upper bound on delta) is consistent, with s* close above 1
        double a = 0.1;
        double b = exact.tradeOff(a, 1);
        assertTrue(b > 0 && b < 0.9);
        assertTrue(exact.test(a, b + 1e-9).consistent());
        // a point far below the curve is not, and its bound exceeds the claim
        LedgerFamily.Result r = exact.test(a, b * 0.5);
        assertFalse(r.consistent());
        assertTrue(r.epsilon() > exact.claimedEpsilon());
    }

    @Test
    void theTradeOffCurveOfOneGaussianIsG_mu() {
        PldAccountant pld = new PldAccountant();
        LedgerFamily f = new LedgerFamily(new GaussianEvent(1 / 1.5), pld, pld, 1e-5);
        for (double a : new double[] {0.01, 0.1, 0.4}) {
            // the envelope of finitely many tangent lines lies below the curve, and close to it
            double g = onCurve(1.5, a);
            double t = f.tradeOff(a, 1);
            assertTrue(t <= g + 1e-9 && t > g - 0.01, "a=" + a + ": " + t + " vs " + g);
        }
    }
}
