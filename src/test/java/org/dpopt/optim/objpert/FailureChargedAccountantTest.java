package org.dpopt.optim.objpert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.accounting.BasicCompositionAccountant;
import org.dpopt.accounting.ComposedEvent;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyReport;
import org.junit.jupiter.api.Test;

class FailureChargedAccountantTest {
    private static final PrivacyAccountant BASIC = new BasicCompositionAccountant(NeighboringRelation.REPLACE_ONE);
    private static final DpEvent EVENT = ComposedEvent.of(new EpsilonDeltaEvent(0.5, 4e-6), new GaussianEvent(7));

    @Test
    void withoutFailureItIsTheInnerAccountant() {
        FailureChargedAccountant a = new FailureChargedAccountant(BASIC, 0, 1);
        assertEquals(BASIC.epsilon(EVENT, 1e-5), a.epsilon(EVENT, 1e-5), 0);
        assertEquals(BASIC.delta(EVENT, 1), a.delta(EVENT, 1), 0);
    }

    @Test
    void chargesOnePlusExpEpsilonTimesP() {
        double p = 1e-9;
        FailureChargedAccountant a = new FailureChargedAccountant(BASIC, p, 1);
        for (double eps : new double[] {0.6, 1, 2, 5}) {
            assertEquals(BASIC.delta(EVENT, eps) + (1 + Math.exp(eps)) * p, a.delta(EVENT, eps), 1e-20);
        }
        for (double delta : new double[] {6e-6, 1e-5, 1e-3}) {
            double eps = a.epsilon(EVENT, delta);
            assertTrue(eps >= BASIC.epsilon(EVENT, delta), "never below the inner epsilon");
            // consistent: the returned epsilon's total delta is within the asked delta
            assertTrue(a.delta(EVENT, eps) <= delta * (1 + 1e-9), delta + " -> " + eps);
            assertEquals(BASIC.epsilon(EVENT, delta - (1 + Math.exp(Math.max(eps, 1))) * p), eps, 1e-12);
        }
        // a δ that cannot cover the charge certifies nothing
        assertEquals(Double.POSITIVE_INFINITY, a.epsilon(EVENT, 4e-6 + 1e-10));
    }

    @Test
    void theReportStatesTheChargeAndTheFullDelta() {
        // ε(1e-5) ≈ 1.02 is below the plan's ε = 2, so the charge is (1 + e²)p
        FailureChargedAccountant a = new FailureChargedAccountant(BASIC, 1e-9, 2);
        PrivacyReport r = a.report(EVENT, 1e-5);
        assertEquals(1e-5, r.delta(), 0);
        assertEquals(a.epsilon(EVENT, 1e-5), r.epsilon(), 0);
        assertEquals("basic-composition", r.accountant());
        String charge = "(1 + e^eps) p = " + ObjectivePerturbationNoise.failureCharge(2, 1e-9);
        assertTrue(r.notes().stream().anyMatch(x -> x.contains(charge)), r.toString());
    }
}
