package org.dpopt.optim.sgd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.AblqAccountant;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.eval.Metrics;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.sampling.Samplers;
import org.junit.jupiter.api.Test;

/** NoisySgd with every sampler: the run's ledger equals the up-front statement; reports are honest. */
class NoisySgdSamplersTest {

    private static Problem problem() {
        UniformRandomProvider rng = Rngs.seeded(2);
        Dataset data = Synthetic.logistic(400, Synthetic.plantedVector(5, 2.0, rng), rng).data();
        return Problem.of(data, Losses.logistic());
    }

    @Test
    void ledgerEqualsStatementForEverySampler() {
        Problem p = problem();
        PrivacyBudget budget = PrivacyBudget.of(2, 1e-5);
        for (String name : Samplers.names()) {
            NoisySgd sgd = NoisySgd.builder().sampler(Samplers.byName(name)).batchSize(40).epochs(2).build();
            DpEvent statement = sgd.privacyEvent(p, budget);
            OptimizationResult r = sgd.optimize(p, budget, Rngs.seeded(4));
            assertEquals(DpEvents.normalize(statement), r.ledger(), name);
            assertEquals(20, r.steps(), name);
            assertTrue(r.privacy().epsilon() <= 2 * (1 + 1e-9), name + ": " + r.privacy());
            assertEquals(org.dpopt.accounting.Bound.UPPER, r.privacy().bound());
            assertEquals(Samplers.byName(name).relation(), sgd.relation());
            assertEquals(sgd.relation(), r.privacy().relation());
            double acc = Metrics.accuracy(r.solution(), p.data());
            assertTrue(acc > 0.6, name + " accuracy " + acc);
        }
    }

    @Test
    void shuffledRunReportsDeterministicUpperAndOptimisticLower() {
        Problem p = problem();
        NoisySgd sgd = NoisySgd.builder().sampler(Samplers.byName("shuffle-dynamic")).batchSize(40).epochs(2)
                .noiseMultiplier(1.0).build();
        OptimizationResult r = sgd.optimize(p, PrivacyBudget.of(1, 1e-5), Rngs.seeded(1));
        assertEquals("ablq", r.privacy().accountant());
        assertEquals(NeighboringRelation.ZERO_OUT, r.privacy().relation());
        assertTrue(r.privacy().epsilonLower() < r.privacy().epsilon());
        assertTrue(r.privacy().toString().contains("OPTIMISTIC"));
    }

    @Test
    void refusesAnAccountantOfTheWrongRelation() {
        Problem p = problem();
        NoisySgd sgd = NoisySgd.builder().sampler(Samplers.byName("shuffle-persistent")).batchSize(40).epochs(1)
                .accountant(new RdpAccountant()).build();
        assertThrows(IllegalArgumentException.class, () -> sgd.privacyEvent(p, PrivacyBudget.of(1, 1e-5)));
        NoisySgd bad = NoisySgd.builder().sampler(Samplers.byName("deterministic")).batchSize(30).epochs(1).build();
        assertThrows(IllegalArgumentException.class, () -> bad.privacyEvent(p, PrivacyBudget.of(1, 1e-5)));
        NoisySgd ok = NoisySgd.builder().sampler(Samplers.byName("deterministic")).batchSize(40).epochs(1)
                .accountant(new AblqAccountant()).build();
        assertEquals(10, ok.optimize(p, PrivacyBudget.of(1, 1e-5), Rngs.seeded(1)).steps());
    }
}
