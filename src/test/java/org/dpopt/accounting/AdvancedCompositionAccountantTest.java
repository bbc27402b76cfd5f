package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AdvancedCompositionAccountantTest {
    private final AdvancedCompositionAccountant drv =
            new AdvancedCompositionAccountant(NeighboringRelation.REPLACE_ONE, false);
    private final AdvancedCompositionAccountant opt =
            new AdvancedCompositionAccountant(NeighboringRelation.REPLACE_ONE, true);

    @Test
    void drvReferenceValue() {
        // theory-notes/test-oracles.md §3: k = 100, ε0 = 0.1, δ′ = 1e-5 ⇒ ε = 5.850235
        DpEvent e = new SelfComposedEvent(new EpsilonDeltaEvent(0.1, 0), 100);
        assertEquals(5.850235, drv.epsilon(e, 1e-5), 1e-6);
        assertEquals(5.850235, AdvancedCompositionAccountant.drvEpsilon(100, 0.1, 1e-5), 1e-6);
        // Laplace with b/Δ = 10 is the same 0.1-DP release
        assertEquals(5.850235, drv.epsilon(new SelfComposedEvent(new LaplaceEvent(10), 100), 1e-5), 1e-6);
    }

    @Test
    void approximateLeavesSpendTheirDelta() {
        // 100 × (0.1, 1e-7): δ′ = 1e-5 − 1e-5·... here total δ = 2e-5, so δ′ = 1e-5 again
        DpEvent e = new SelfComposedEvent(new EpsilonDeltaEvent(0.1, 1e-7), 100);
        assertEquals(5.850235, drv.epsilon(e, 2e-5), 1e-6);
        assertEquals(Double.POSITIVE_INFINITY, drv.epsilon(e, 0.5e-5));
    }

    @Test
    void basicCompositionWinsForFewReleases() {
        DpEvent e = new SelfComposedEvent(new EpsilonDeltaEvent(0.5, 0), 3);
        assertEquals(1.5, drv.epsilon(e, 1e-5), 1e-12);
    }

    @Test
    void heterogeneousForm() {
        DpEvent e = ComposedEvent.of(new SelfComposedEvent(new EpsilonDeltaEvent(0.1, 0), 50),
                new SelfComposedEvent(new EpsilonDeltaEvent(0.2, 0), 50));
        double s2 = 50 * 0.01 + 50 * 0.04;
        double mean = 50 * 0.1 * Math.expm1(0.1) + 50 * 0.2 * Math.expm1(0.2);
        double expected = Math.min(15.0, Math.sqrt(2 * Math.log(1e5) * s2) + mean);
        assertEquals(expected, opt.epsilon(e, 1e-5), 1e-9); // not homogeneous: optimal form unused
    }

    @Test
    void optimalMatchesKairouzOhViswanathGridPoints() {
        // KOV Thm 3.3 at ε = (k − 2i)ε0: δ_i = Σ_{l<i} C(k,l)(e^{(k−l)ε0} − e^{(k−2i+l)ε0}) / (1+e^{ε0})^k
        int k = 10;
        double e0 = 0.3;
        for (int i = 1; i <= 4; i++) {
            double s = 0;
            for (int l = 0; l < i; l++) {
                s += binom(k, l) * (Math.exp((k - l) * e0) - Math.exp((k - 2 * i + l) * e0));
            }
            s /= Math.pow(1 + Math.exp(e0), k);
            assertEquals(s, AdvancedCompositionAccountant.optimalDelta(k, e0, 0, (k - 2 * i) * e0), 1e-12);
        }
        // one release: δ(ε) = (e^{ε0} − e^{ε})/(1 + e^{ε0}) below ε0, 0 at ε0
        assertEquals((Math.exp(0.5) - Math.exp(0.2)) / (1 + Math.exp(0.5)),
                AdvancedCompositionAccountant.optimalDelta(1, 0.5, 0, 0.2), 1e-14);
        assertEquals(0, AdvancedCompositionAccountant.optimalDelta(1, 0.5, 0, 0.5), 0);
        // δ0 > 0: 1 − (1−δ0)^k at ε = kε0
        assertEquals(1 - Math.pow(1 - 1e-3, 4), AdvancedCompositionAccountant.optimalDelta(4, 0.1, 1e-3, 0.4), 1e-15);
    }

    @Test
    void optimalIsTighterThanDrvAndConsistent() {
        DpEvent e = new SelfComposedEvent(new EpsilonDeltaEvent(0.1, 0), 100);
        double eps = opt.epsilon(e, 1e-5);
        assertTrue(eps < 5.850235 && eps > 3.0, "optimal " + eps);
        // the reported ε must satisfy the exact curve at the target δ
        assertTrue(AdvancedCompositionAccountant.optimalDelta(100, 0.1, 0, eps) <= 1e-5);
        assertTrue(AdvancedCompositionAccountant.optimalDelta(100, 0.1, 0, eps * 0.999) > 1e-5);
        assertTrue(opt.delta(e, eps) <= 1e-5 * (1 + 1e-9));
        // large k stays finite (log-space evaluation)
        double big = opt.epsilon(new SelfComposedEvent(new EpsilonDeltaEvent(0.01, 0), 100_000), 1e-6);
        assertTrue(big < AdvancedCompositionAccountant.drvEpsilon(100_000, 0.01, 1e-6) && big > 0, "big " + big);
    }

    @Test
    void parallelTakesTheWorstPart() {
        DpEvent a = new SelfComposedEvent(new EpsilonDeltaEvent(0.1, 0), 100);
        DpEvent b = new SelfComposedEvent(new EpsilonDeltaEvent(0.1, 0), 10);
        assertEquals(drv.epsilon(a, 1e-5), drv.epsilon(new ParallelComposedEvent(List.of(a, b)), 1e-5), 0);
    }

    @Test
    void unsupportedEventsAreNamed() {
        DpEvent g = new GaussianEvent(1.0);
        UnsupportedEventException ex = assertThrows(UnsupportedEventException.class, () -> drv.epsilon(g, 1e-5));
        assertEquals(g, ex.event());
        assertTrue(drv.unsupportedReason(ComposedEvent.of(new LaplaceEvent(1), g)).isPresent());
        assertTrue(drv.unsupportedReason(new LaplaceEvent(1)).isEmpty());
        assertThrows(UnsupportedEventException.class, () -> drv.epsilon(
                ComposedEvent.of(new LaplaceEvent(1), ParallelComposedEvent.of(new LaplaceEvent(1))), 1e-5));
        assertEquals(0, drv.epsilon(NoOpEvent.INSTANCE, 1e-5), 0);
    }

    @Test
    void badArgumentsRefused() {
        DpEvent e = new LaplaceEvent(1);
        assertThrows(IllegalArgumentException.class, () -> drv.epsilon(e, 0));
        assertThrows(IllegalArgumentException.class, () -> drv.delta(e, -1));
        assertThrows(IllegalArgumentException.class, () -> new AdvancedCompositionAccountant(null));
        assertThrows(IllegalArgumentException.class, () -> AdvancedCompositionAccountant.drvEpsilon(0, 0.1, 1e-5));
        assertThrows(IllegalArgumentException.class, () -> AdvancedCompositionAccountant.optimalDelta(1, 0.1, 1, 0));
    }

    private static double binom(int n, int k) {
        double r = 1;
        for (int i = 0; i < k; i++) {
            r = r * (n - i) / (i + 1);
        }
        return r;
    }
}
