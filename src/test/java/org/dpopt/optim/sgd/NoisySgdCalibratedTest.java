package org.dpopt.optim.sgd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunPlan;
import org.junit.jupiter.api.Test;

class NoisySgdCalibratedTest {
    @Test
    void aReusedPlanRunsExactlyLikeACalibratingRun() {
        Problem p = NoisySgdTest.logisticProblem(500, 4, 3);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        NoisySgd sgd = NoisySgd.builder().batchSize(25).epochs(2).build();
        RunPlan plan = sgd.plan(p.shape(), b);
        assertEquals(sgd.privacyEvent(p, b), plan.statement());
        OptimizationResult a = sgd.optimize(p, b, Rngs.seeded(8));
        OptimizationResult c = sgd.run(p, plan, Rngs.seeded(8));
        assertArrayEquals(a.solution().data, c.solution().data, 0.0);
        assertEquals(a.privacy().epsilon(), c.privacy().epsilon(), 0.0);
    }
}
