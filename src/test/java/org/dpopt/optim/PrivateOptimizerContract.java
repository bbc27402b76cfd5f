package org.dpopt.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.accounting.DpEvents;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link PrivateOptimizer} must meet. Extend it with a factory for the optimizer
 * and a small problem it accepts.
 */
public abstract class PrivateOptimizerContract {

    /** The optimizer under test. */
    protected abstract PrivateOptimizer optimizer();

    /** A small problem the optimizer accepts. */
    protected abstract Problem problem();

    /** A budget the optimizer accepts on {@link #problem()} (null for the non-private baseline). */
    protected PrivacyBudget budget() {
        return PrivacyBudget.of(1.0, 1e-5);
    }

    @Test
    void ledgerEqualsUpFrontStatement() {
        PrivateOptimizer opt = optimizer();
        Problem p = problem();
        OptimizationResult r = opt.optimize(p, budget(), Rngs.seeded(1));
        assertEquals(DpEvents.normalize(opt.privacyEvent(p, budget())), r.ledger(),
                "the run's ledger must equal the stated privacy event");
    }

    @Test
    void reportedEpsilonWithinBudget() {
        OptimizationResult r = optimizer().optimize(problem(), budget(), Rngs.seeded(2));
        if (budget() == null) {
            assertEquals(Double.POSITIVE_INFINITY, r.privacy().epsilon(), "a run without a budget claims nothing");
            assertEquals(org.dpopt.accounting.NonPrivateEvent.INSTANCE, r.ledger());
            return;
        }
        assertTrue(r.privacy().epsilon() <= budget().epsilon() * (1 + 1e-9),
                "spent " + r.privacy().epsilon() + " > budget " + budget().epsilon());
        assertEquals(budget().delta(), r.privacy().delta(), 0);
        assertEquals(optimizer().relation(), r.privacy().relation());
    }

    @Test
    void sameSeedGivesBitIdenticalResult() {
        OptimizationResult a = optimizer().optimize(problem(), budget(), Rngs.seeded(3));
        OptimizationResult b = optimizer().optimize(problem(), budget(), Rngs.seeded(3));
        assertArrayEquals(a.solution().data, b.solution().data, 0.0);
        OptimizationResult c = optimizer().optimize(problem(), budget(), Rngs.seeded(4));
        assertTrue(!java.util.Arrays.equals(a.solution().data, c.solution().data), "different seeds, same output");
    }

    @Test
    void solutionHasProblemDimensionAndIsFinite() {
        OptimizationResult r = optimizer().optimize(problem(), budget(), Rngs.seeded(5));
        assertEquals(problem().parameterDimension(), r.solution().numRows);
        for (double v : r.solution().data) {
            assertTrue(Double.isFinite(v));
        }
        assertTrue(r.steps() >= 1);
    }

    @Test
    void planIsAFunctionOfThePublicShapeOnly() {
        Problem p = problem();
        RunPlan a = optimizer().plan(p.shape(), budget());
        RunPlan b = optimizer().plan(p.shape(), budget());
        assertEquals(a.statement(), b.statement());
        assertEquals(a.parameters(), b.parameters());
        assertEquals(optimizer().name(), a.algorithm());
        assertEquals(optimizer().relation(), a.relation());
    }

    /** Calibrate once, run many seeds: a reused plan gives the bits of a fresh optimize with the same seed. */
    @Test
    void aPlanIsReusableAcrossRuns() {
        Problem p = problem();
        RunPlan plan = optimizer().plan(p.shape(), budget());
        OptimizationResult first = optimizer().run(p, plan, Rngs.seeded(8));
        OptimizationResult again = optimizer().run(p, plan, Rngs.seeded(8));
        OptimizationResult fresh = optimizer().optimize(p, budget(), Rngs.seeded(8));
        assertArrayEquals(fresh.solution().data, first.solution().data, 0.0);
        assertArrayEquals(fresh.solution().data, again.solution().data, 0.0);
        assertEquals(plan.statement(), again.ledger());
        assertEquals(plan.parameters(), again.parameters());
    }

    @Test
    void diagnosticsAreOffByDefaultAndSeededRunsSaySo() {
        OptimizationResult r = optimizer().optimize(problem(), budget(), Rngs.seeded(6));
        assertTrue(r.nonPrivateDiagnostics().isEmpty(), "diagnostics computed without being asked for: "
                + r.nonPrivateDiagnostics());
        assertEquals(org.dpopt.noise.NoiseSource.SEEDED_DESCRIPTION, r.noise());
        assertTrue(r.privacy().toString().contains("not private unless the seed is secret"), r.privacy().toString());
    }

    @Test
    void aPlanIsReusableAndItsRunsCarryIt() {
        // calibrate once, run many seeds: a plan holds no run state, and a run reports the plan it ran
        Problem p = problem();
        RunPlan plan = optimizer().plan(p.shape(), budget());
        OptimizationResult a = optimizer().run(p, plan, Rngs.seeded(8));
        OptimizationResult b = optimizer().run(p, plan, Rngs.seeded(8));
        assertArrayEquals(a.solution().data, b.solution().data, 0.0);
        org.junit.jupiter.api.Assertions.assertSame(plan, a.plan());
        assertEquals(plan.statement(), a.ledger());
        assertEquals(plan.parameters(), a.parameters());
    }

    @Test
    void refusesAPlanForAnotherShape() {
        Problem p = problem();
        RunPlan plan = optimizer().plan(p.shape(), budget());
        int n = p.size();
        int d = p.dimension();
        org.dpopt.data.Dataset wider = org.dpopt.data.Dataset.of(new double[n][d + 1], new double[n], 1.0);
        Problem other = new Problem(wider, p.loss(), p.domain(), p.declaredSize());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> optimizer().run(other, plan, Rngs.seeded(7)));
    }
}
