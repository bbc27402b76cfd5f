package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The PLD accountant: closed forms, monotonicity, error bars and the event algebra. */
class PldAccountantTest {

    private static final PldAccountant PLD = new PldAccountant();

    private static DpEvent sgd(double q, double z, long t) {
        return new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(z)), t);
    }

    @Test
    void gaussianCompositionIsOneGaussianWithScaledNoise() {
        // T-fold Gaussian(z) == Gaussian(z/√T) , and heterogeneous Gaussians merge by 1/z²
        DpEvent e = new SelfComposedEvent(new GaussianEvent(3.0), 36);
        assertEquals(GaussianMechanism.epsilon(1e-5, 0.5), PLD.epsilon(e, 1e-5), 1e-12);
        assertEquals(GaussianMechanism.delta(1.0, 0.5), PLD.delta(e, 1.0), 1e-15);
        DpEvent mixed = ComposedEvent.of(new GaussianEvent(1.0), new GaussianEvent(1 / Math.sqrt(3)));
        assertEquals(GaussianMechanism.epsilon(1e-6, 0.5), PLD.epsilon(mixed, 1e-6), 1e-12);
        PrivacyReport r = PLD.report(e, 1e-5);
        // the exact curve: the certified lower bound brackets it from below, to bisection accuracy
        assertTrue(r.epsilonLower() <= r.epsilon());
        assertEquals(r.epsilon(), r.epsilonLower(), 1e-9 * r.epsilon());
    }

    @Test
    void laplaceGivesItsPureEpsilon() {
        // Lap(b = 0.5): (2, 0)-DP; δ(ε) = 1 − e^{(ε − 2)/2} below 2
        assertEquals(2.0, PLD.epsilon(new LaplaceEvent(0.5), 1e-12), 2e-4);
        assertEquals(-Math.expm1(-0.5), PLD.delta(new LaplaceEvent(0.5), 1.0), 1e-7);
        // 10-fold: never worse than basic composition 20, and strictly better at δ = 1e-6
        double e10 = PLD.epsilon(new SelfComposedEvent(new LaplaceEvent(0.5), 10), 1e-6);
        assertTrue(e10 < 20 && e10 > 2, "eps " + e10);
    }

    @Test
    void heterogeneousCompositionRespectsBasicComposition() {
        // Laplace(1) ∘ (0.5, 1e-3)-DP is (1.5, 1e-3)-DP, and tight there: δ(1.5) = 1 − (1 − 0)(1 − 1e-3)
        DpEvent e = ComposedEvent.of(new LaplaceEvent(1.0), new EpsilonDeltaEvent(0.5, 1e-3));
        assertTrue(PLD.delta(e, 1.5) >= 1e-3 * (1 - 1e-9));
        assertEquals(1e-3, PLD.delta(e, 1.5 + 3e-4), 1e-9);
        assertEquals(1.5, PLD.epsilon(e, 1.0001e-3), 5e-4);
        assertEquals(Double.POSITIVE_INFINITY, PLD.epsilon(e, 0.9e-3));
    }

    @Test
    void landsInsideSpecBracketsForTheAbadiExample() {
        // theory-notes/test-oracles.md §3: q = 0.01, σ = 4, T = 1e4 ⇒ ε(1e-5) ∈ [0.8467, 1.0470], δ(1) ∈ [7.5844e-7, 2.0683e-5];
        // RDP (1.0355 improved) must be above
        DpEvent e = sgd(0.01, 4, 10_000);
        PrivacyReport r = PLD.report(e, 1e-5);
        assertTrue(r.epsilon() >= 0.8467 && r.epsilon() <= 1.0470, r.toString());
        // floor rounding drifts by at most T·h = 1 here
        assertTrue(r.epsilonLower() <= r.epsilon() && r.epsilonLower() >= r.epsilon() - 1.0);
        double d = PLD.delta(e, 1.0);
        assertTrue(d >= 7.5844e-7 && d <= 2.0683e-5, "delta " + d);
        assertTrue(new RdpAccountant().epsilon(e, 1e-5) > r.epsilon());
    }

    @Test
    void epsilonIsMonotoneInNoiseStepsAndRate() {
        double prev = Double.POSITIVE_INFINITY;
        for (double z : new double[] {0.8, 1.0, 1.5, 3.0}) {
            double e = PLD.epsilon(sgd(0.01, z, 200), 1e-5);
            assertTrue(e <= prev, "non-increasing in z at " + z);
            prev = e;
        }
        prev = 0;
        for (long t : new long[] {1, 10, 100, 1000}) {
            double e = PLD.epsilon(sgd(0.01, 1.0, t), 1e-5);
            assertTrue(e >= prev, "non-decreasing in T at " + t);
            prev = e;
        }
        prev = 0;
        for (double q : new double[] {0.001, 0.01, 0.05, 0.2}) {
            double e = PLD.epsilon(sgd(q, 1.0, 100), 1e-5);
            assertTrue(e >= prev, "non-decreasing in q at " + q);
            prev = e;
        }
    }

    @Test
    void reportCarriesAnErrorBar() {
        for (double[] c : new double[][] {{0.01, 1.0, 1000}, {0.1, 2.0, 50}, {0.001, 0.7, 10}}) {
            PrivacyReport r = PLD.report(sgd(c[0], c[1], (long) c[2]), 1e-5);
            assertEquals("pld", r.accountant());
            assertEquals(org.dpopt.accounting.Bound.UPPER, r.bound());
            assertTrue(r.epsilonLower() >= 0);
            assertTrue(r.epsilon() >= r.epsilonLower());
            // floor rounding drifts by at most T·h per composition
            assertTrue(r.epsilon() - r.epsilonLower() <= c[2] * PldAccountant.DEFAULT_DISCRETIZATION + 1e-3, r.toString());
            assertEquals(r.epsilon(), PLD.epsilon(sgd(c[0], c[1], (long) c[2]), 1e-5), 0.0);
        }
        assertTrue(PLD.deltaLower(sgd(0.01, 1, 1000), 1.0) <= PLD.delta(sgd(0.01, 1, 1000), 1.0));
        assertEquals(0.0, PLD.epsilon(sgd(0.001, 50, 1), 1e-5)); // ε ≥ 0 even when δ(0) < target
    }

    @Test
    void handlesMillionStepsBySquaringInFourierSpace() {
        DpEvent big = sgd(1e-3, 2.0, 1_000_000);
        PrivacyReport r = PLD.report(big, 1e-6);
        double half = PLD.epsilon(sgd(1e-3, 2.0, 500_000), 1e-6);
        assertTrue(r.epsilon() > half && r.epsilon() < new RdpAccountant().epsilon(big, 1e-6), r.toString());
        assertTrue(r.epsilonLower() <= r.epsilon());
    }

    @Test
    @org.junit.jupiter.api.Tag("slow")
    void gridRefinementMovesTheUpperBoundByLessThanATenthOfAPercent() {
        // off the reference grid: h = 1e-4 against h = 2e-5 (connect-the-dots error is second order in h)
        PldAccountant fine = new PldAccountant(2e-5, NeighboringRelation.ADD_OR_REMOVE_ONE);
        for (double[] c : new double[][] {{0.03, 1.3, 3000}, {0.2, 2.5, 500}, {0.005, 0.7, 20_000}, {0.5, 5, 100}}) {
            DpEvent e = sgd(c[0], c[1], (long) c[2]);
            for (double delta : new double[] {1e-6, 1e-9}) {
                double coarse = PLD.epsilon(e, delta);
                double f = fine.epsilon(e, delta);
                assertEquals(f, coarse, 1e-3 * f, "q=" + c[0] + " z=" + c[1] + " T=" + c[2] + " delta=" + delta);
                assertTrue(fine.epsilonLower(e, delta) <= coarse);
            }
        }
    }

    @Test
    void trivialEventsAndParallelComposition() {
        assertEquals(0.0, PLD.epsilon(NoOpEvent.INSTANCE, 1e-5));
        assertEquals(0.0, PLD.delta(new PoissonSampledEvent(0.1, NoOpEvent.INSTANCE), 0.0));
        assertEquals(Double.POSITIVE_INFINITY, PLD.epsilon(ComposedEvent.of(NonPrivateEvent.INSTANCE, new GaussianEvent(1)), 1e-5));
        assertEquals(1.0, PLD.delta(NonPrivateEvent.INSTANCE, 3.0));
        // parallel: the worst part
        DpEvent par = ParallelComposedEvent.of(new GaussianEvent(1.0), new GaussianEvent(2.0));
        assertEquals(PLD.epsilon(new GaussianEvent(1.0), 1e-5), PLD.epsilon(par, 1e-5), 0.0);
        assertTrue(PLD.report(par, 1e-5).notes().contains("parallel composition: worst part"));
        // nested parallel with different parts: sequential fallback, never below the worst part's composition
        DpEvent nested = ComposedEvent.of(ParallelComposedEvent.of(new LaplaceEvent(1.0), new LaplaceEvent(2.0)),
                new PoissonSampledEvent(0.1, new GaussianEvent(1.0)));
        DpEvent worst = ComposedEvent.of(new LaplaceEvent(1.0), new PoissonSampledEvent(0.1, new GaussianEvent(1.0)));
        assertTrue(PLD.epsilon(nested, 1e-5) >= PLD.epsilon(worst, 1e-5));
        assertTrue(PLD.report(nested, 1e-5).notes().stream().anyMatch(n -> n.contains("composed sequentially")));
        // nested parallel with equal parts counts once
        DpEvent equalParts = ComposedEvent.of(ParallelComposedEvent.of(new LaplaceEvent(1.0), new LaplaceEvent(1.0)),
                new PoissonSampledEvent(0.1, new GaussianEvent(1.0)));
        assertEquals(PLD.epsilon(worst, 1e-5), PLD.epsilon(equalParts, 1e-5), 1e-12);
    }

    @Test
    void replaceOneSupportsSymmetricMechanismsAndRefusesPoisson() {
        PldAccountant replace = new PldAccountant(1e-4, NeighboringRelation.REPLACE_ONE);
        assertEquals(NeighboringRelation.REPLACE_ONE, replace.relation());
        // the event's z already refers to the replace-one sensitivity, so the curve is the same
        DpEvent e = ComposedEvent.of(new LaplaceEvent(2.0), new GaussianEvent(3.0));
        assertEquals(PLD.epsilon(e, 1e-6), replace.epsilon(e, 1e-6), 1e-12);
        DpEvent poisson = new PoissonSampledEvent(0.01, new GaussianEvent(1.0));
        UnsupportedEventException ex = assertThrows(UnsupportedEventException.class,
                () -> replace.epsilon(new SelfComposedEvent(poisson, 10), 1e-5));
        assertEquals(poisson, ex.event());
        assertTrue(ex.getMessage().contains("group privacy"));
        assertTrue(replace.unsupportedReason(poisson).isPresent());
    }

    @Test
    void unsupportedSubEventIsNamed() {
        DpEvent inner = new LaplaceEvent(1.0);
        DpEvent e = ComposedEvent.of(new GaussianEvent(1), new PoissonSampledEvent(0.1, inner));
        UnsupportedEventException ex = assertThrows(UnsupportedEventException.class, () -> PLD.epsilon(e, 1e-5));
        assertEquals(inner, ex.event());
        assertTrue(PLD.unsupportedReason(e).orElseThrow().contains(inner.describe()));
        assertTrue(PLD.unsupportedReason(sgd(0.1, 1, 10)).isEmpty());
    }

    @Test
    void refusesBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> new PldAccountant(0, NeighboringRelation.ADD_OR_REMOVE_ONE));
        assertThrows(IllegalArgumentException.class, () -> new PldAccountant(0.5, NeighboringRelation.ADD_OR_REMOVE_ONE));
        assertThrows(IllegalArgumentException.class, () -> new PldAccountant(1e-4, null));
        assertThrows(IllegalArgumentException.class, () -> PLD.epsilon(new GaussianEvent(1), 0));
        assertThrows(IllegalArgumentException.class, () -> PLD.epsilon(new GaussianEvent(1), 1));
        assertThrows(IllegalArgumentException.class, () -> PLD.delta(new GaussianEvent(1), -1));
        assertThrows(IllegalArgumentException.class, () -> PLD.epsilon(null, 1e-5));
    }
}
