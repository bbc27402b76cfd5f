package org.dpopt.optim.frankwolfe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.dpopt.geometry.LpBall;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunPlan;
import org.junit.jupiter.api.Test;

/**
 * The practical default of noisy-sfw (K full-batch passes): with the same forced points on replace-one
 * neighbours, every one of the K exact estimates differs by at most the declared Δ = 2L/n, and the
 * bound is attained (the victim is in every pass's anchor). Deterministic given the seeds.
 */
class NoisySfwPassesSensitivityTest {

    @Test
    void everyPassReleasesAFullBatchGradientOfSensitivityTwoLOverN() {
        int n = 60;
        AdversarialNeighbours adv = new AdversarialNeighbours(n, 4, Rngs.seeded(13));
        GeneralizedLinearLoss loss = Losses.squared(1, 1);
        LpBall ball = new LpBall(2, 1.0);
        Problem base = Problem.of(adv.base(), loss, ball);
        RunPlan plan = NoisyStochasticFrankWolfe.builder().passes(n).build()
                .plan(base.shape(), PrivacyBudget.of(1, 1e-6));
        NoisyStochasticFrankWolfe.Schedule s = plan.detail(NoisyStochasticFrankWolfe.Schedule.class);
        assertEquals(n, s.schedule().passes());
        assertEquals(n, s.schedule().anchor());
        assertEquals(2 * base.lipschitz() / n, s.sensitivity(), 1e-15);
        List<Integer> victims = List.of(0, n / 2, n - 1);
        AdversarialNeighbours.Probe estimates = NoisyStochasticFrankWolfeTest.forcedPointProbe(plan, s, loss, ball);
        AdversarialNeighbours.Probe probe = (data, seed) -> {
            List<double[]> seen = estimates.releases(data, seed);
            assertEquals(n, seen.size());
            return seen;
        };
        double[] worst = adv.worstChange(victims, victims.size(), 4, NoisyStochasticFrankWolfeTest::randomVictim,
                probe, AdversarialNeighbours::l2, 70);
        assertTrue(worst[0] <= s.sensitivity() * (1 + 1e-9), "a pass moved " + worst[0] + " > " + s.sensitivity());
        assertTrue(worst[0] >= 0.99 * s.sensitivity(), "bound not attained: " + worst[0]);
    }
}
