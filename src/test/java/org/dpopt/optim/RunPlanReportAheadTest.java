package org.dpopt.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.accounting.UnsupportedEventException;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.Losses;
import org.dpopt.loss.ProblemShape;
import org.junit.jupiter.api.Test;

class RunPlanReportAheadTest {

    private static final ProblemShape SHAPE = new ProblemShape(1000, 3, 1.0, Losses.logistic(),
            ConvexSets.unconstrained(), false);
    private static final DpEvent SGD = new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(1.5)), 300);

    private static RunPlan plan(PrivacyAccountant acc, NeighboringRelation rel) {
        return RunPlan.builder("test", SHAPE).privacy(SGD, rel, acc, PrivacyBudget.of(3, 1e-5)).build();
    }

    @Test
    void aReportComputedAheadIsTheReportComputedOnDemand() {
        PrivacyReport onDemand = plan(new PldAccountant(), NeighboringRelation.ADD_OR_REMOVE_ONE).report();
        RunPlan ahead = plan(new PldAccountant(), NeighboringRelation.ADD_OR_REMOVE_ONE);
        ahead.prepareReport();
        ahead.prepareReport(); // a second call starts nothing new
        PrivacyReport r = ahead.report();
        assertEquals(Double.doubleToRawLongBits(onDemand.epsilon()), Double.doubleToRawLongBits(r.epsilon()));
        assertEquals(Double.doubleToRawLongBits(onDemand.epsilonLower()), Double.doubleToRawLongBits(r.epsilonLower()));
        assertEquals(onDemand.toString(), r.toString());
        assertEquals(r, ahead.report()); // computed once
    }

    @Test
    void aRefusalComputedAheadIsThrownByReportAsOnDemand() {
        PldAccountant replaceOne = new PldAccountant(PldAccountant.DEFAULT_DISCRETIZATION, NeighboringRelation.REPLACE_ONE);
        RunPlan onDemand = plan(replaceOne, NeighboringRelation.REPLACE_ONE);
        Class<? extends Throwable> type = assertThrows(UnsupportedEventException.class, onDemand::report).getClass();
        RunPlan ahead = plan(replaceOne, NeighboringRelation.REPLACE_ONE);
        ahead.prepareReport();
        assertEquals(type, assertThrows(UnsupportedEventException.class, ahead::report).getClass());
    }

    @Test
    void theThreadsThatComputedAReportEndAfterIt() throws InterruptedException {
        RunPlan ahead = plan(new PldAccountant(), NeighboringRelation.ADD_OR_REMOVE_ONE);
        ahead.prepareReport();
        ahead.report();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("dpopt-report-ahead") || t.getName().equals("dpopt-pld-direction")) {
                assertTrue(t.isDaemon(), "a daemon thread");
                t.join(10_000);
                assertFalse(t.isAlive(), t.getName() + " ends once the report is computed");
            }
        }
    }
}
