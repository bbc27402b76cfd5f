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

    /** A budget the optimizer accepts on {@link #problem()}. */
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
        assertEquals(problem().dimension(), r.solution().numRows);
        for (double v : r.solution().data) {
            assertTrue(Double.isFinite(v));
        }
        assertTrue(r.steps() >= 1);
    }
}
