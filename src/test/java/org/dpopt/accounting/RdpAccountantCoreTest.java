package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** RDP accountant: oracles of theory-notes/test-oracles.md §3, integer/fractional consistency, calibration safety. */
class RdpAccountantCoreTest {

    private static DpEvent dpsgd(double q, double z, long t) {
        return new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(z)), t);
    }

    private static double[] integerOrders(int max) {
        double[] o = new double[max - 1];
        for (int a = 2; a <= max; a++) {
            o[a - 2] = a;
        }
        return o;
    }

    @Test
    void abadiMomentsAccountantExample() {
        // theory-notes/test-oracles.md §3: integer orders 2..256; classic 1.2586, improved 1.0355
        RdpAccountant classic = new RdpAccountant(integerOrders(256), RdpAccountant.Conversion.CLASSIC,
                NeighboringRelation.ADD_OR_REMOVE_ONE);
        RdpAccountant improved = new RdpAccountant(integerOrders(256), RdpAccountant.Conversion.IMPROVED,
                NeighboringRelation.ADD_OR_REMOVE_ONE);
        assertEquals(1.2586, classic.epsilon(dpsgd(0.01, 4, 10_000), 1e-5), 1e-4);
        assertEquals(1.0355, improved.epsilon(dpsgd(0.01, 4, 10_000), 1e-5), 1e-4);
        assertEquals(2.5383, classic.epsilon(dpsgd(0.01, 1, 1000), 1e-5), 1e-4);
        assertEquals(2.1078, improved.epsilon(dpsgd(0.01, 1, 1000), 1e-5), 1e-4);
        assertEquals(6.2798, classic.epsilon(dpsgd(0.01, 1.1, 10_000), 1e-5), 1e-4);
        assertEquals(5.6543, improved.epsilon(dpsgd(0.01, 1.1, 10_000), 1e-5), 1e-4);
    }

    @Test
    void nestedCountsMultiplyAndAnOverflowingTotalIsRefused() {
        RdpAccountant rdp = new RdpAccountant();
        DpEvent g = new GaussianEvent(2);
        // (3 x (5 x g)) is 15 x g to the bit: the count is multiplied before it scales the curve
        assertEquals(rdp.epsilon(new SelfComposedEvent(g, 15), 1e-5),
                rdp.epsilon(new SelfComposedEvent(new SelfComposedEvent(g, 5), 3), 1e-5), 0.0);
        DpEvent tooMany = new SelfComposedEvent(new SelfComposedEvent(g, Long.MAX_VALUE / 2), 3);
        assertThrows(IllegalArgumentException.class, () -> rdp.epsilon(tooMany, 1e-5));
    }

    @Test
    void fractionalIntegrationAgreesWithBinomialSumAtIntegerOrders() {
        for (double q : new double[] {0.001, 0.01, 0.1, 0.5}) {
            for (double z : new double[] {0.5, 0.8, 1, 4}) {
                for (long a : new long[] {2, 3, 8, 20}) {
                    double exact = SampledGaussianRdp.logAInteger(q, z, a);
                    double integral = SampledGaussianRdp.logAFractional(q, z, a);
                    assertEquals(exact, integral, 1e-9 * Math.max(1, Math.abs(exact)), "q=" + q + " z=" + z + " a=" + a);
                }
            }
        }
    }

    @Test
    void gaussianAndFullSamplingAgree() {
        RdpAccountant acc = new RdpAccountant();
        double[] a = acc.rdp(new GaussianEvent(2));
        double[] b = acc.rdp(new PoissonSampledEvent(1.0, new GaussianEvent(2)));
        for (int k = 0; k < a.length; k++) {
            assertEquals(a[k], b[k], 1e-12);
        }
        // RDP-derived epsilon is never below the exact Gaussian epsilon
        assertTrue(acc.epsilon(new GaussianEvent(2), 1e-5) >= GaussianMechanism.epsilon(1e-5, 2));
    }

    @Test
    void parallelCompositionIsTheWorstPart() {
        RdpAccountant acc = new RdpAccountant();
        DpEvent par = ParallelComposedEvent.of(new GaussianEvent(3), new GaussianEvent(1), new GaussianEvent(2));
        assertEquals(acc.epsilon(new GaussianEvent(1), 1e-6), acc.epsilon(par, 1e-6), 1e-12);
    }

    @Test
    void calibrationNeverOvershootsOverAGrid() {
        RdpAccountant acc = new RdpAccountant();
        for (double eps : new double[] {0.5, 1, 2, 8}) {
            for (double q : new double[] {0.001, 0.01, 0.1}) {
                for (long t : new long[] {10, 1000, 10_000}) {
                    double z = Calibration.noiseMultiplier(acc, x -> dpsgd(q, x, t), eps, 1e-5);
                    double got = acc.epsilon(dpsgd(q, z, t), 1e-5);
                    assertTrue(got <= eps, "overshoot: eps=" + got + " > " + eps);
                    // and it is tight: 0.1% less noise would exceed the target
                    assertTrue(acc.epsilon(dpsgd(q, z * 0.999, t), 1e-5) > eps * 0.999, "not tight at z=" + z);
                }
            }
        }
    }

    @Test
    void edgeOfGridIsReported() {
        RdpAccountant small = new RdpAccountant(new double[] {2, 3}, RdpAccountant.Conversion.IMPROVED,
                NeighboringRelation.ADD_OR_REMOVE_ONE);
        PrivacyReport r = small.report(dpsgd(0.01, 4, 100), 1e-5);
        assertTrue(r.notes().stream().anyMatch(s -> s.contains("edge of the order grid")), r.notes().toString());
    }

    @Test
    void unsupportedEventsAreNamed() {
        RdpAccountant acc = new RdpAccountant();
        UnsupportedEventException e = assertThrows(UnsupportedEventException.class,
                () -> acc.epsilon(new PoissonSampledEvent(0.1, new LaplaceEvent(1)), 1e-5));
        assertTrue(e.getMessage().contains("Laplace"), e.getMessage());
        assertTrue(acc.unsupportedReason(new EpsilonDeltaEvent(1, 1e-6)).isPresent());
        RdpAccountant replace = new RdpAccountant(RdpAccountant.DEFAULT_ORDERS, RdpAccountant.Conversion.IMPROVED,
                NeighboringRelation.REPLACE_ONE);
        assertTrue(replace.unsupportedReason(dpsgd(0.1, 1, 1)).isPresent());
        assertEquals(Double.POSITIVE_INFINITY, acc.epsilon(NonPrivateEvent.INSTANCE, 1e-5));
        assertEquals(0.0, acc.epsilon(NoOpEvent.INSTANCE, 1e-5));
    }

    @Test
    void rejectsBadArguments() {
        RdpAccountant acc = new RdpAccountant();
        assertThrows(IllegalArgumentException.class, () -> acc.epsilon(new GaussianEvent(1), 0));
        assertThrows(IllegalArgumentException.class, () -> acc.epsilon(new GaussianEvent(1), 1));
        assertThrows(IllegalArgumentException.class, () -> acc.delta(new GaussianEvent(1), -1));
        assertThrows(IllegalArgumentException.class, () -> new RdpAccountant(new double[] {1.0},
                RdpAccountant.Conversion.IMPROVED, NeighboringRelation.ADD_OR_REMOVE_ONE));
        assertThrows(IllegalArgumentException.class, () -> new GaussianEvent(0));
        assertThrows(IllegalArgumentException.class, () -> new PoissonSampledEvent(1.5, new GaussianEvent(1)));
        assertThrows(IllegalArgumentException.class, () -> new SelfComposedEvent(new GaussianEvent(1), 0));
        assertThrows(IllegalArgumentException.class, () -> new EpsilonDeltaEvent(1, 1));
    }
}
