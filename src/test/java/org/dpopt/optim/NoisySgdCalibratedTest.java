package org.dpopt.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.junit.jupiter.api.Test;

class NoisySgdCalibratedTest {
    @Test
    void calibratedCopyRunsExactlyLikeTheCalibratingOptimizer() {
        Problem p = NoisySgdTest.logisticProblem(500, 4, 3);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        NoisySgd sgd = NoisySgd.builder().batchSize(25).epochs(2).build();
        NoisySgd fixed = sgd.calibratedFor(p, b);
        assertEquals(sgd.privacyEvent(p, b), fixed.privacyEvent(p, b));
        OptimizationResult a = sgd.optimize(p, b, Rngs.seeded(8));
        OptimizationResult c = fixed.optimize(p, b, Rngs.seeded(8));
        assertArrayEquals(a.solution().data, c.solution().data, 0.0);
        assertEquals(a.privacy().epsilon(), c.privacy().epsilon(), 0.0);
    }
}
