package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.dpopt.accounting.AblqStepEvent.BatchOrder;
import org.junit.jupiter.api.Test;

/** Sampler-aware accounting: oracle values of theory-notes/test-oracles.md §2, bounds sides, refusals. */
class AblqAccountantTest {

    private final AblqAccountant acc = new AblqAccountant();

    private static DpEvent run(BatchOrder o, double z, long s, long epochs) {
        return new SelfComposedEvent(new AblqStepEvent(o, z, s), s * epochs);
    }

    private static void close(double expected, double actual, double rel) {
        assertEquals(expected, actual, rel * Math.abs(expected), () -> "expected " + expected + " got " + actual);
    }

    @Test
    void deterministicSigmaMatchesOracleAndIsIndependentOfBatchCount() {
        for (long s : new long[] {1, 100, 5000}) {
            close(1.106383, acc.noiseMultiplier(z -> run(BatchOrder.DETERMINISTIC, z, s, 1), 5, 2.7e-8, Bound.UPPER, 1e-8), 1e-6);
            close(2.473947, acc.noiseMultiplier(z -> run(BatchOrder.DETERMINISTIC, z, s, 5), 5, 2.7e-8, Bound.UPPER, 1e-8), 1e-6);
            close(2.473947, acc.noiseMultiplier(z -> run(BatchOrder.DETERMINISTIC, z, s, 5), 5, 2.7e-8, Bound.LOWER, 1e-8), 1e-6);
        }
        close(3.730632, acc.noiseMultiplier(z -> run(BatchOrder.DETERMINISTIC, z, 10, 1), 1, 1e-5, Bound.UPPER, 1e-8), 1e-6);
        close(8.341946, acc.noiseMultiplier(z -> run(BatchOrder.DETERMINISTIC, z, 10, 5), 1, 1e-5, Bound.UPPER, 1e-8), 1e-6);
    }

    @Test
    void deterministicDeltaMatchesPaperExampleConfiguration() {
        double[] eps = {0.5, 1, 2, 4, 6, 8, 10};
        double[] want = {0.8053036, 0.7572536, 0.6438782, 0.3837565, 0.1666956, 0.05006763, 0.01003678};
        DpEvent e = run(BatchOrder.DETERMINISTIC, 0.35, 1000, 1);
        for (int k = 0; k < eps.length; k++) {
            close(want[k], acc.delta(e, eps[k]), 1e-6);
            close(want[k], acc.deltaLower(e, eps[k]), 1e-6);
        }
    }

    @Test
    void shuffledRunsReportUpperAndOptimisticLower() {
        for (BatchOrder o : new BatchOrder[] {BatchOrder.PERSISTENT_SHUFFLE, BatchOrder.DYNAMIC_SHUFFLE}) {
            DpEvent e = run(o, 0.8, 1000, 2);
            // upper = deterministic curve at z/sqrt(E)
            close(GaussianMechanism.delta(2, 0.8 / Math.sqrt(2)), acc.delta(e, 2), 1e-12);
            PrivacyReport r = acc.report(e, 1e-2);
            assertEquals(org.dpopt.accounting.Bound.UPPER, r.bound());
            assertTrue(r.epsilonLower() < r.epsilon(), r.toString());
            assertTrue(r.notes().get(0).contains("OPTIMISTIC"));
            // the lower ε is where the lower δ curve crosses 1e-2
            assertTrue(acc.deltaLower(e, r.epsilonLower()) >= 1e-2 * (1 - 1e-6));
        }
        close(1.272059e-1, acc.deltaLower(run(BatchOrder.PERSISTENT_SHUFFLE, 0.8, 1000, 2), 2), 1e-6);
        close(1.026642e-2, acc.deltaLower(run(BatchOrder.DYNAMIC_SHUFFLE, 0.8, 1000, 2), 2), 1e-4);
    }

    @Test
    void shuffleSigmaLowerIsBelowTheValidUpper() {
        double up = acc.noiseMultiplier(z -> run(BatchOrder.DYNAMIC_SHUFFLE, z, 100, 1), 5, 2.7e-8, Bound.UPPER, 1e-6);
        double lo = acc.noiseMultiplier(z -> run(BatchOrder.DYNAMIC_SHUFFLE, z, 100, 1), 5, 2.7e-8, Bound.LOWER, 1e-6);
        close(1.106383, up, 1e-5);
        assertTrue(lo < up && lo > 0.5, lo + " vs " + up);
        assertTrue(ShuffleLowerBound.singleEpochDelta(5, lo * (1 + 1e-4), 100) <= 2.7e-8);
        assertTrue(ShuffleLowerBound.singleEpochDelta(5, lo * (1 - 1e-4), 100) > 2.7e-8);
    }

    @Test
    void partialEpochsCountAsTouchedEpochsForTheUpperBound() {
        DpEvent e = new SelfComposedEvent(new AblqStepEvent(BatchOrder.PERSISTENT_SHUFFLE, 1.0, 10), 11);
        close(GaussianMechanism.delta(1, 1 / Math.sqrt(2)), acc.delta(e, 1), 1e-12);
        // lower bound from the single complete epoch
        close(ShuffleLowerBound.singleEpochDelta(1, 1.0, 10), acc.deltaLower(e, 1), 1e-12);
        assertTrue(acc.report(e, 1e-5).notes().stream().anyMatch(n -> n.contains("partial epoch")));
        assertTrue(Double.isNaN(acc.deltaLower(new AblqStepEvent(BatchOrder.DYNAMIC_SHUFFLE, 1.0, 10), 1)));
    }

    @Test
    void truncatedPoissonAddsTheTruncationTermToThePoissonCurve() {
        AblqAccountant rdp = new AblqAccountant(NeighboringRelation.ZERO_OUT, new RdpAccountant(), true);
        long n = 1_000_000;
        double q = 1e-3;
        DpEvent poisson = new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(1.0)), 1000);
        DpEvent trunc = new SelfComposedEvent(new TruncatedPoissonEvent(q, n, 1200, new GaussianEvent(1.0)), 1000);
        for (double eps : new double[] {0.5, 1, 3}) {
            close(rdp.delta(poisson, eps) + TruncationTerm.deltaTerm(eps, n, q, 1200, 1000), acc.delta(trunc, eps), 1e-12);
        }
        double e = acc.epsilon(trunc, 1e-5);
        assertTrue(e >= rdp.epsilon(poisson, 1e-5));
        assertTrue(acc.delta(trunc, e) <= 1e-5 * (1 + 1e-9));
        assertTrue(acc.delta(trunc, e * 0.999) > 1e-5);
        assertTrue(Double.isNaN(acc.report(trunc, 1e-5).epsilonLower()));
        // B = 1100: the term alone (0.578 overflow probability) exceeds delta; no epsilon, no sigma
        DpEvent vacuous = new SelfComposedEvent(new TruncatedPoissonEvent(q, n, 1100, new GaussianEvent(1.0)), 1000);
        assertEquals(Double.POSITIVE_INFINITY, acc.epsilon(vacuous, 1e-5));
        assertTrue(acc.report(vacuous, 1e-5).notes().stream().anyMatch(x -> x.contains("raise")));
        assertThrows(IllegalArgumentException.class, () -> acc.noiseMultiplier(
                z -> new SelfComposedEvent(new TruncatedPoissonEvent(q, n, 1100, new GaussianEvent(z)), 1000), 1, 1e-5,
                Bound.UPPER, 1e-4));
        assertThrows(IllegalArgumentException.class, () -> acc.noiseMultiplier(z -> trunc, 1, 1e-5, Bound.LOWER, 1e-4));
    }

    @Test
    void poissonByPldLandsInTheOracleBracketsBelowRdp() {
        // theory-notes/test-oracles.md §3 brackets, q = 0.01, σ = 1, T = 1000
        DpEvent p = new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(1)), 1000);
        double[] eps = {0.5, 1, 2};
        double[] lo = {2.9317e-2, 2.4667e-3, 2.4634e-6};
        double[] hi = {3.1861e-2, 2.7659e-3, 2.8839e-6};
        for (int k = 0; k < 3; k++) {
            double d = acc.delta(p, eps[k]);
            assertTrue(d >= lo[k] && d <= hi[k], eps[k] + ": " + d);
            assertTrue(acc.deltaLower(p, eps[k]) <= d);
        }
        double e = acc.epsilon(p, 1e-5);
        assertTrue(e >= 1.8181 && e <= 1.8383, "eps " + e);
        assertTrue(new RdpAccountant().epsilon(p, 1e-5) >= e);
        PrivacyReport r = acc.report(p, 1e-5);
        assertTrue(r.epsilonLower() <= r.epsilon());
        assertEquals(org.dpopt.accounting.Bound.UPPER, r.bound());
        // without PLD the Poisson event goes to the delegate
        AblqAccountant viaRdp = new AblqAccountant(NeighboringRelation.ZERO_OUT, new RdpAccountant());
        close(new RdpAccountant().epsilon(p, 1e-5), viaRdp.epsilon(p, 1e-5), 1e-12);
        AblqAccountant addRemove = new AblqAccountant(NeighboringRelation.ADD_OR_REMOVE_ONE, new RdpAccountant());
        assertTrue(addRemove.unsupportedReason(p).isEmpty());
    }

    @Test
    void refusesWhatItCannotBound() {
        AblqAccountant addRemove = new AblqAccountant(NeighboringRelation.ADD_OR_REMOVE_ONE, new RdpAccountant());
        DpEvent shuffled = run(BatchOrder.DYNAMIC_SHUFFLE, 1, 10, 1);
        assertTrue(addRemove.unsupportedReason(shuffled).isPresent());
        assertThrows(UnsupportedEventException.class, () -> addRemove.epsilon(shuffled, 1e-5));
        DpEvent mixed = new ComposedEvent(List.of(shuffled, new GaussianEvent(1)));
        assertTrue(acc.unsupportedReason(mixed).isPresent());
        assertThrows(UnsupportedEventException.class, () -> acc.delta(mixed, 1));
        assertTrue(new RdpAccountant().unsupportedReason(shuffled).isPresent());
        assertThrows(IllegalArgumentException.class,
                () -> new AblqAccountant(NeighboringRelation.REPLACE_ONE, new RdpAccountant()));
        assertThrows(IllegalArgumentException.class, () -> new AblqAccountant(NeighboringRelation.ZERO_OUT,
                new RdpAccountant(new double[] {2, 4}, RdpAccountant.Conversion.CLASSIC, NeighboringRelation.REPLACE_ONE)));
        assertThrows(IllegalArgumentException.class, () -> acc.delta(shuffled, -1));
        assertThrows(IllegalArgumentException.class, () -> acc.epsilon(shuffled, 0));
        assertThrows(IllegalArgumentException.class, () -> new AblqStepEvent(BatchOrder.DETERMINISTIC, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new AblqStepEvent(BatchOrder.DETERMINISTIC, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new TruncatedPoissonEvent(0.1, 10, 0, new GaussianEvent(1)));
    }
}
