package org.dpopt.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.dpopt.accounting.Bound;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.accounting.GaussianEvent;
import org.junit.jupiter.api.Test;

/** What a ledger spends, and which releases it admits. */
class BudgetLedgerTest {
    private static final NeighboringRelation AR = NeighboringRelation.ADD_OR_REMOVE_ONE;
    private static final DpEvent SGD = new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(1.0)),
            300);

    static BudgetLedger.Entry sgdRun(String what) {
        double eps = new PldAccountant().epsilon(SGD, 1e-6);
        return new BudgetLedger.Entry(Instant.EPOCH, what, eps, 1e-6, "pld", SGD);
    }

    @Test
    void gaussianRunsComposeByTheAccountantNotBySummingEpsilons() {
        BudgetLedger.Entry run = sgdRun("a");
        BudgetLedger l = BudgetLedger.empty(100, 1e-5, AR).record(run, AR).record(run, AR).record(run, AR)
                .record(run, AR);
        BudgetLedger.Spending s = l.spent();
        // the four runs together are the 1200-step event: the ledger's bound is close to its direct PLD bound
        // and never below the optimistic lower bound on the true epsilon
        PrivacyReport direct = new PldAccountant().report(new SelfComposedEvent(
                new PoissonSampledEvent(0.01, new GaussianEvent(1.0)), 1200), 1e-5);
        assertTrue(s.epsilon() < 4 * run.epsilon(), s + " vs sum " + 4 * run.epsilon());
        assertEquals(direct.epsilon(), s.epsilon(), 0.02 * direct.epsilon(), s.toString());
        assertTrue(s.epsilon() >= direct.epsilonLower(), "below the lower bound " + direct.epsilonLower() + ": " + s);
        assertEquals(4, l.entries().size());
    }

    @Test
    void basicCompositionIsTheFallbackAndItsDeltasMustFit() {
        DpEvent ed = new EpsilonDeltaEvent(0.3, 2e-6);
        BudgetLedger.Entry e = new BudgetLedger.Entry(Instant.EPOCH, "release", 0.3, 2e-6, "basic", ed);
        BudgetLedger l = BudgetLedger.empty(1.0, 1e-5, AR).record(e, AR).record(e, AR).record(e, AR);
        assertTrue(l.spent().epsilon() <= 0.9 + 1e-12, l.spent().toString());
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> l.record(e, AR));
        assertTrue(ex.getMessage().startsWith("privacy budget must be enough for release"), ex.getMessage());
        assertEquals(3, l.entries().size(), "a refused release changed the ledger");
    }

    @Test
    void theLastOfTheBudgetCannotBeSpentTwice() {
        // a budget of exactly one run's epsilon (certified at delta 1e-6, so at the budget's 1e-5 it spends less)
        BudgetLedger.Entry run = sgdRun("a");
        BudgetLedger one = BudgetLedger.empty(run.epsilon(), 1e-5, AR).record(run, AR);
        assertTrue(one.spentWith(run).epsilon() > run.epsilon(), one.spentWith(run).toString());
        assertThrows(IllegalArgumentException.class, () -> one.record(run, AR));
        assertEquals(0, BudgetLedger.empty(1, 1e-5, AR).spent().epsilon());
    }

    @Test
    void anotherRelationAndBadTotalsAreRefused() {
        BudgetLedger l = BudgetLedger.empty(10, 1e-5, AR);
        assertThrows(IllegalArgumentException.class, () -> l.record(sgdRun("a"), NeighboringRelation.REPLACE_ONE));
        for (double eps : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThrows(IllegalArgumentException.class, () -> BudgetLedger.empty(eps, 1e-5, AR), "eps " + eps);
        }
        for (double d : new double[] {0, 1, -1, Double.NaN}) {
            assertThrows(IllegalArgumentException.class, () -> BudgetLedger.empty(1, d, AR), "delta " + d);
        }
        assertThrows(IllegalArgumentException.class,
                () -> new BudgetLedger.Entry(Instant.EPOCH, "two\nlines", 1, 1e-6, "pld", SGD));
        assertThrows(UnsupportedOperationException.class, () -> l.entries().add(sgdRun("b")));
        // a lower bound or an infinite epsilon is no spend a budget can record
        PrivacyReport lower = new PrivacyReport(0.5, 0.5, 1e-6, "pld", AR, SGD, Bound.LOWER, java.util.List.of());
        assertThrows(IllegalArgumentException.class, () -> BudgetLedger.Entry.of("x", lower, Instant.EPOCH));
        assertThrows(IllegalArgumentException.class,
                () -> BudgetLedger.Entry.of("x", PrivacyReport.nonPrivate(1e-6), Instant.EPOCH));
        PrivacyReport upper = new PrivacyReport(0.5, 0.5, 1e-6, "pld", AR, SGD, Bound.UPPER, java.util.List.of());
        assertEquals(0.5, BudgetLedger.Entry.of("x", upper, Instant.EPOCH).epsilon());
    }

    /**
     * A release that may fail with probability p (objective perturbation's solver) records p: the ledger
     * charges (1 + e^ε)p again at the composed ε, which its event alone does not carry; the file keeps p.
     */
    @Test
    void aFailureProbabilityIsChargedAtTheComposedEpsilonAndKeptInTheFile() {
        NeighboringRelation rr = NeighboringRelation.REPLACE_ONE;
        double p = 1e-6;
        double own = (1 + Math.exp(1.0)) * p;
        DpEvent m = new EpsilonDeltaEvent(1.0, 1e-5 - own);
        BudgetLedger.Entry failing = new BudgetLedger.Entry(Instant.EPOCH, "objpert", 1.0, 1e-5, "basic", m, p);
        BudgetLedger.Entry plain = new BudgetLedger.Entry(Instant.EPOCH, "objpert", 1.0, 1e-5, "basic", m);
        BudgetLedger withP = BudgetLedger.empty(100, 1e-4, rr).record(failing, rr).record(failing, rr);
        BudgetLedger withoutP = BudgetLedger.empty(100, 1e-4, rr).record(plain, rr).record(plain, rr);
        double eps = withP.spent().epsilon();
        assertTrue(eps > withoutP.spent().epsilon(), eps + " vs " + withoutP.spent().epsilon());
        assertTrue(eps <= 2.0 + 1e-12, "never above basic composition: " + eps);
        // the statement it certifies holds: the events' δ at eps plus the charge at eps fit the total
        DpEvent composed = new org.dpopt.accounting.ComposedEvent(java.util.List.of(m, m));
        double need = new PldAccountant(1e-4, rr).delta(composed, eps) + (1 + Math.exp(eps)) * 2 * p;
        assertTrue(need <= 1e-4 * (1 + 1e-9) || eps == 2.0, "delta needed " + need);
        BudgetLedger back = LedgerText.read(LedgerText.write(withP), "test");
        assertEquals(p, back.entries().get(1).failureProbability(), 0);
        assertEquals(eps, back.spent().epsilon(), 0);
        assertEquals(0, LedgerText.read(LedgerText.write(withoutP), "test").entries().get(0).failureProbability(), 0);
        assertTrue(!LedgerText.write(withoutP).contains("failure_probability"), "old-format files stay as they were");
        assertThrows(IllegalArgumentException.class, () -> new BudgetLedger.Entry(Instant.EPOCH, "x", 1, 1e-5, "b", m,
                -1e-9));
    }
}
