package org.dpopt.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.data.Synthetic;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.Losses;
import org.dpopt.loss.PhaseRetrievalLoss;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Algorithm 6: privacy statement = ledger, refusals, and recovery / stationarity improving with n. */
class ProximallyGuidedMirrorDescentTest {

    private static final PrivacyBudget BUDGET = PrivacyBudget.of(4, 1e-5);

    private static Problem phaseRetrieval(int n, DMatrixRMaj wStar, long seed) {
        return Problem.of(Synthetic.phaseRetrieval(n, wStar, 0.1, Rngs.seeded(seed)).data(),
                new PhaseRetrievalLoss(2), ConvexSets.l2Ball(2));
    }

    @ParameterizedTest
    @ValueSource(doubles = {1.0, 1.5, 2.0})
    void ledgerEqualsStatement(double p) {
        DMatrixRMaj wStar = Synthetic.plantedVector(8, 1, Rngs.seeded(1));
        Problem pr = phaseRetrieval(3000, wStar, 2);
        ProximallyGuidedMirrorDescent opt = ProximallyGuidedMirrorDescent.builder().p(p).diagnosticIterations(20).build();
        DpEvent statement = opt.privacyEvent(pr, BUDGET);
        OptimizationResult r = opt.optimize(pr, BUDGET, Rngs.seeded(3));
        assertEquals(statement, r.ledger());
        assertTrue(statement instanceof ParallelComposedEvent);
        int parts = (int) (r.legacyParameter("rounds") * r.legacyParameter("phases_per_round"));
        assertEquals(parts, ((ParallelComposedEvent) statement).events().size());
        assertTrue(r.privacy().epsilon() <= BUDGET.epsilon() * (1 + 1e-9));
        assertEquals(NeighboringRelation.ADD_OR_REMOVE_ONE, opt.relation());
        assertEquals(parts * r.legacyParameter("steps_per_phase"), r.steps(), 0);
        assertTrue(ConvexSets.l2Ball(2).contains(r.solution(), 1e-9));
        assertTrue(r.hasLegacyDiagnostic("near_stationarity"));
    }

    @Test
    void parametersFollowTheorem20Balance() {
        Problem pr = phaseRetrieval(20_000, Synthetic.plantedVector(10, 1, Rngs.seeded(1)), 2);
        ProximallyGuidedMirrorDescent.Plan plan = ProximallyGuidedMirrorDescent.builder().build().plan(pr, BUDGET);
        // C = 2·uMax·R = 4, ρ = 2R² = 2, D = 2, κ = 1, ΔF̄ = 2CD = 16
        double stat = Math.sqrt(2 * 16 * 20_000 / (16.0 * 1));
        double priv = Math.cbrt(2 * 16 * 16 * 20_000.0 * 20_000 / (16 * 10 * Math.log(1e5)));
        assertEquals((int) Math.floor(Math.min(stat, priv)), plan.rounds());
        assertEquals(4.0, plan.lipschitz(), 1e-12);
        assertEquals(2.0, plan.rho(), 1e-12);
        assertEquals(ProximallyGuidedMirrorDescent.defaultPhases(20_000.0 / plan.rounds()), plan.phases());
        assertEquals(20_000.0 / (plan.rounds() * plan.phases()), plan.phase().plannedSize(), 1e-9);
    }

    @Test
    void trajectoryDiagnosticSamplesEvenlySpacedRounds() {
        assertEquals(13, ProximallyGuidedMirrorDescent.trajectoryRound(0, 4, 100)); // midpoints of 4 strata
        assertEquals(38, ProximallyGuidedMirrorDescent.trajectoryRound(1, 4, 100));
        assertEquals(88, ProximallyGuidedMirrorDescent.trajectoryRound(3, 4, 100));
        assertEquals(5, ProximallyGuidedMirrorDescent.trajectoryRound(4, 5, 5));
        assertEquals(1, ProximallyGuidedMirrorDescent.trajectoryRound(0, 5, 5));
        Problem pr = phaseRetrieval(3000, Synthetic.plantedVector(4, 1, Rngs.seeded(1)), 2);
        OptimizationResult r = ProximallyGuidedMirrorDescent.builder().diagnosticIterations(20).trajectoryPoints(6)
                .build().optimize(pr, BUDGET, Rngs.seeded(4));
        assertEquals(6.0, r.legacyDiagnostic("trajectory_points"));
        assertTrue(r.legacyDiagnostic("expected_near_stationarity") > 0);
        // diagnostics do not touch the private output: same seed without them, same solution
        OptimizationResult plain = ProximallyGuidedMirrorDescent.builder().diagnosticIterations(0).build()
                .optimize(pr, BUDGET, Rngs.seeded(4));
        assertTrue(Arrays.equals(plain.solution().data, r.solution().data));
        assertTrue(!plain.hasLegacyDiagnostic("near_stationarity"));
    }

    @Test
    void partitionIsDisjointAndCovering() {
        int[][] parts = ProximallyGuidedMirrorDescent.partition(1000, 7, Rngs.seeded(5));
        boolean[] seen = new boolean[1000];
        int total = 0;
        for (int[] part : parts) {
            for (int i : part) {
                assertTrue(!seen[i]);
                seen[i] = true;
                total++;
            }
        }
        assertEquals(1000, total);
    }

    @Test
    void refusesUnboundedDomain() {
        Problem pr = Problem.of(phaseRetrieval(500, Synthetic.plantedVector(3, 1, Rngs.seeded(1)), 2).data(),
                new PhaseRetrievalLoss(1));
        ProximallyGuidedMirrorDescent opt = ProximallyGuidedMirrorDescent.builder().build();
        assertThrows(IllegalArgumentException.class, () -> opt.privacyEvent(pr, BUDGET));
        assertThrows(IllegalArgumentException.class, () -> opt.optimize(pr, BUDGET, Rngs.seeded(1)));
    }

    @Test
    void refusesConvexLossWithoutRho() {
        Problem pr = Problem.of(phaseRetrieval(500, Synthetic.plantedVector(3, 1, Rngs.seeded(1)), 2).data(),
                Losses.logistic(), ConvexSets.l2Ball(1));
        assertThrows(IllegalArgumentException.class,
                () -> ProximallyGuidedMirrorDescent.builder().build().privacyEvent(pr, BUDGET));
        // with an explicit ρ a convex loss is accepted (it is ρ-weakly convex for every ρ ≥ 0)
        DpEvent e = ProximallyGuidedMirrorDescent.builder().rho(0.5).build().privacyEvent(pr, BUDGET);
        assertTrue(e instanceof ParallelComposedEvent);
    }

    @Test
    void refusesRhoBelowDeclared() {
        Problem pr = phaseRetrieval(500, Synthetic.plantedVector(3, 1, Rngs.seeded(1)), 2);
        assertThrows(IllegalArgumentException.class,
                () -> ProximallyGuidedMirrorDescent.builder().rho(1.0).build().privacyEvent(pr, BUDGET));
    }

    @Test
    void refusesTooFewRecordsPerPart() {
        Problem pr = phaseRetrieval(500, Synthetic.plantedVector(3, 1, Rngs.seeded(1)), 2);
        assertThrows(IllegalArgumentException.class,
                () -> ProximallyGuidedMirrorDescent.builder().rounds(100).build().privacyEvent(pr, BUDGET));
        assertThrows(IllegalArgumentException.class,
                () -> ProximallyGuidedMirrorDescent.builder().innerPhases(1000).build().privacyEvent(pr, BUDGET));
    }

    @Test
    void refusesReplaceOneAccountant() {
        Problem pr = phaseRetrieval(500, Synthetic.plantedVector(3, 1, Rngs.seeded(1)), 2);
        RdpAccountant replace = new RdpAccountant(RdpAccountant.DEFAULT_ORDERS, RdpAccountant.Conversion.IMPROVED,
                NeighboringRelation.REPLACE_ONE);
        assertThrows(IllegalArgumentException.class,
                () -> ProximallyGuidedMirrorDescent.builder().accountant(replace).build().privacyEvent(pr, BUDGET));
    }

    @Test
    void refusesInitialPointOfWrongDimension() {
        Problem pr = phaseRetrieval(500, Synthetic.plantedVector(3, 1, Rngs.seeded(1)), 2);
        ProximallyGuidedMirrorDescent opt = ProximallyGuidedMirrorDescent.builder()
                .initialPoint(new DMatrixRMaj(4, 1)).build();
        assertThrows(IllegalArgumentException.class, () -> opt.optimize(pr, BUDGET, Rngs.seeded(1)));
    }

    @Test
    void builderRefusesBadValues() {
        ProximallyGuidedMirrorDescent.Builder b = ProximallyGuidedMirrorDescent.builder();
        assertThrows(IllegalArgumentException.class, () -> b.p(0.9));
        assertThrows(IllegalArgumentException.class, () -> b.p(2.1));
        assertThrows(IllegalArgumentException.class, () -> b.rounds(0));
        assertThrows(IllegalArgumentException.class, () -> b.innerPhases(0));
        assertThrows(IllegalArgumentException.class, () -> b.rho(0));
        assertThrows(IllegalArgumentException.class, () -> b.rho(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> b.diagnosticIterations(-1));
        assertThrows(IllegalArgumentException.class, () -> b.trajectoryPoints(-1));
        DMatrixRMaj bad = new DMatrixRMaj(2, 1);
        bad.data[1] = Double.NaN;
        assertThrows(IllegalArgumentException.class, () -> b.initialPoint(bad));
    }

    @Test
    void sameSeedSameResult() {
        Problem pr = phaseRetrieval(2000, Synthetic.plantedVector(4, 1, Rngs.seeded(1)), 2);
        ProximallyGuidedMirrorDescent opt = ProximallyGuidedMirrorDescent.builder().p(1).diagnosticIterations(0).build();
        UniformRandomProvider a = Rngs.seeded(9);
        UniformRandomProvider b = Rngs.seeded(9);
        assertTrue(Arrays.equals(opt.optimize(pr, BUDGET, a).solution().data,
                opt.optimize(pr, BUDGET, b).solution().data));
    }
}
