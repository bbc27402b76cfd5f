package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.accounting.ComposedEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.LaplaceEvent;
import org.dpopt.accounting.NoOpEvent;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.Losses;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.objpert.ApproximateObjectivePerturbation;
import org.dpopt.optim.sgd.NoisySgd;
import org.junit.jupiter.api.Test;

/** The step limit of {@code train}: noisy steps are counted, solver steps are held to the work limit. */
class TrainLimitsTest {
    private static final PrivacyBudget BUDGET = PrivacyBudget.of(1, 1e-5);

    @Test
    void releasesCountLeavesWithTheirMultiplicity() {
        GaussianEvent g = new GaussianEvent(1.0);
        assertEquals(0, DpEvents.releases(NoOpEvent.INSTANCE));
        assertEquals(1, DpEvents.releases(g));
        assertEquals(7, DpEvents.releases(new SelfComposedEvent(new PoissonSampledEvent(0.01, g), 7)));
        assertEquals(2 * 5 + 1, DpEvents.releases(ComposedEvent.of(new SelfComposedEvent(
                ComposedEvent.of(g, new LaplaceEvent(1.0)), 5), g)));
        assertEquals(3, DpEvents.releases(ParallelComposedEvent.of(g, g, g)));
        assertEquals(Long.MAX_VALUE, DpEvents.releases(new SelfComposedEvent(new SelfComposedEvent(g,
                Long.MAX_VALUE / 2), 3)));
    }

    @Test
    void noisyStepsAboveTheLimitAreRefused() {
        ProblemShape shape = new ProblemShape(100_000, 10, 1, Losses.logistic(), ConvexSets.unconstrained(), false);
        RunPlan plan = NoisySgd.builder().batchSize(1).epochs(101).build().plan(shape, BUDGET);
        assertTrue(plan.parameters().real(Param.STEPS) > TrainLimits.MAX_STEPS);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TrainLimits.steps(plan, 101.0));
        assertTrue(e.getMessage().startsWith("--epochs must be small enough for at most 10000000 steps"),
                e.getMessage());
    }

    @Test
    void svrgSolverStepsAreHeldToTheWorkLimitNotTheStepLimit() {
        ProblemShape shape = new ProblemShape(30_000, 109, 1, Losses.logistic(), ConvexSets.unconstrained(), false);
        RunPlan many = ApproximateObjectivePerturbation.builder().build().plan(shape, PrivacyBudget.of(5, 1e-5));
        double t = many.parameters().real(Param.STEPS);
        assertTrue(t > TrainLimits.MAX_STEPS && t * 109 < TrainLimits.MAX_WORK, "steps " + t);
        assertDoesNotThrow(() -> TrainLimits.steps(many, null));

        ProblemShape big = new ProblemShape(10_000_000, 109, 1, Losses.logistic(), ConvexSets.unconstrained(), false);
        RunPlan huge = ApproximateObjectivePerturbation.builder().lambda(3e-8).build().plan(big, BUDGET);
        assertTrue(huge.parameters().real(Param.STEPS) * 109 > TrainLimits.MAX_WORK);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TrainLimits.steps(huge, null));
        assertTrue(e.getMessage().startsWith("planned steps must be at most "), e.getMessage());
    }

    @Test
    void stepsWithoutNoiseCountTheirRowsTowardTheWorkLimit() {
        // non-private SGD releases nothing, so only the work limit holds it: T x b x d
        ProblemShape shape = new ProblemShape(1_000_000, 10_000, 1, Losses.logistic(), ConvexSets.unconstrained(),
                false);
        RunPlan fine = org.dpopt.optim.sgd.NonPrivateSgd.builder().batchSize(256).epochs(10).build().plan(shape, BUDGET);
        assertDoesNotThrow(() -> TrainLimits.steps(fine, 10.0));
        RunPlan hours = org.dpopt.optim.sgd.NonPrivateSgd.builder().batchSize(256).epochs(200).build()
                .plan(shape, BUDGET);
        assertTrue(hours.parameters().real(Param.STEPS) < TrainLimits.MAX_STEPS, "few steps, large batches");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TrainLimits.steps(hours, 200.0));
        assertTrue(e.getMessage().contains("256 rows of 10000 parameters per step"), e.getMessage());
    }
}
