package org.dpopt.optim.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.dpopt.loss.CauchyLoss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.PhaseRetrievalLoss;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.Diagnostics;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.PrivateOptimizerContract;
import org.dpopt.optim.RunParameters;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Algorithm 6: privacy statement = ledger, parameters, diagnostics, refusals; contract. */
class ProximallyGuidedMirrorDescentTest {

    @Nested
    class L1Contract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return ProximallyGuidedMirrorDescent.builder().p(1).build();
        }

        @Override
        protected Problem problem() {
            return phaseRetrieval(1500, Synthetic.plantedVector(4, 1, Rngs.seeded(11)), 12);
        }
    }

    @Nested
    class CauchyEuclideanContract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return ProximallyGuidedMirrorDescent.builder().build();
        }

        @Override
        protected Problem problem() {
            return Problem.of(Synthetic.linearRegression(1500, Synthetic.plantedVector(4, 1, Rngs.seeded(13)), 0.3,
                    Rngs.seeded(14)).data(), CauchyLoss.INSTANCE, ConvexSets.l2Ball(2));
        }
    }

    @Nested
    class ConvexPracticalContract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return ProximallyGuidedMirrorDescent.builder().build();
        }

        @Override
        protected Problem problem() {
            return logistic(1500);
        }
    }

    private static Problem logistic(int n) {
        return Problem.of(Synthetic.logistic(n, Synthetic.plantedVector(3, 1, Rngs.seeded(1)), Rngs.seeded(2)).data(),
                Losses.logistic(), ConvexSets.l2Ball(2));
    }

    @Test
    void practicalPresetForAConvexLossIsOneRoundOnePhaseFromTheOriginWithTheLastIterate() {
        Problem pr = logistic(4000);
        RunParameters p = ProximallyGuidedMirrorDescent.builder().build().plan(pr.shape(), BUDGET).parameters();
        assertEquals(1L, (long) p.real(Param.ROUNDS));
        assertEquals(1L, (long) p.real(Param.PHASES));
        assertEquals("last", p.get(Param.OUTPUT));
        assertEquals("practical", p.get(Param.PRESET));
        // one part of all n records: b = round(sqrt(4000)) = 63
        assertEquals(63.0, p.real(Param.BATCH_SIZE), 0);
        // explicit rounds are kept and still released as the last iterate
        RunParameters r = ProximallyGuidedMirrorDescent.builder().rounds(3).build().plan(pr.shape(), BUDGET)
                .parameters();
        assertEquals(3L, (long) r.real(Param.ROUNDS));
        assertEquals("last", r.get(Param.OUTPUT));
        // the paper preset keeps Theorem 20's balance and the random round
        RunParameters paper = ProximallyGuidedMirrorDescent.builder().preset(org.dpopt.optim.Preset.PAPER).build()
                .plan(pr.shape(), BUDGET).parameters();
        assertEquals("random", paper.get(Param.OUTPUT));
        assertEquals("paper", paper.get(Param.PRESET));
        assertTrue(paper.real(Param.ROUNDS) * paper.real(Param.PHASES) > 1);
    }

    @Test
    void practicalPresetStartsAtTheOriginAndOutputsTheLastIterate() {
        // with rounds(1) the paper output w_{t*} is the random start (norm D/2 = 1); the practical output is the
        // iterate after the round, a different point, and the result is reproducible
        Problem pr = logistic(2000);
        OptimizationResult paper = ProximallyGuidedMirrorDescent.builder().preset(org.dpopt.optim.Preset.PAPER)
                .rounds(1).innerPhases(1).build().optimize(pr, BUDGET, Rngs.seeded(5));
        assertEquals(1.0, org.dpopt.linalg.Vectors.norm2(paper.solution()), 1e-9);
        OptimizationResult practical = ProximallyGuidedMirrorDescent.builder().build().optimize(pr, BUDGET,
                Rngs.seeded(5));
        assertFalse(Math.abs(org.dpopt.linalg.Vectors.norm2(practical.solution()) - 1.0) < 1e-6);
        assertEquals(Arrays.toString(practical.solution().data), Arrays.toString(ProximallyGuidedMirrorDescent
                .builder().build().optimize(pr, BUDGET, Rngs.seeded(5)).solution().data));
    }

    @Test
    void practicalLocalizationRadiusIsCappedAtTwiceTheDomainRadius() {
        // logistic, C = 1, D = 2, n = 4000: practical rho = 1/8000, 2C/rho = 16000, capped at 2D = 4
        Problem pr = logistic(4000);
        assertEquals(4.0, schedule(ProximallyGuidedMirrorDescent.builder().build(), pr).localizationRadius(), 0);
        // paper: 2C/rho with rho = C/(30 D) = 1/60
        assertEquals(120.0, schedule(ProximallyGuidedMirrorDescent.builder().preset(org.dpopt.optim.Preset.PAPER)
                .build(), pr).localizationRadius(), 1e-9);
        // a large declared rho leaves 2C/rho below the cap: 2/1 = 2 < 4
        assertEquals(2.0, schedule(ProximallyGuidedMirrorDescent.builder().rho(1).build(), pr).localizationRadius(),
                1e-12);
    }

    @Test
    void nonConvexLossKeepsThePaperSettingUnderThePracticalPreset() {
        assertTrue(ProximallyGuidedMirrorDescent.usesPracticalRule(org.dpopt.optim.Preset.PRACTICAL, 0));
        assertFalse(ProximallyGuidedMirrorDescent.usesPracticalRule(org.dpopt.optim.Preset.PRACTICAL, 0.5));
        assertFalse(ProximallyGuidedMirrorDescent.usesPracticalRule(org.dpopt.optim.Preset.PAPER, 0));
        Problem pr = phaseRetrieval(3000, Synthetic.plantedVector(3, 1, Rngs.seeded(1)), 2);
        RunParameters p = ProximallyGuidedMirrorDescent.builder().build().plan(pr.shape(), BUDGET).parameters();
        assertEquals("random", p.get(Param.OUTPUT));
        assertEquals("paper", p.get(Param.PRESET));
    }

    @Test
    void refusesNullPreset() {
        assertThrows(IllegalArgumentException.class, () -> ProximallyGuidedMirrorDescent.builder().preset(null));
    }

    private static PgmdSchedule schedule(ProximallyGuidedMirrorDescent opt, Problem pr) {
        return opt.plan(pr.shape(), BUDGET).detail(PgmdSchedule.class);
    }

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
        ProximallyGuidedMirrorDescent opt = ProximallyGuidedMirrorDescent.builder().p(p).diagnosticIterations(20)
                .diagnostics(true).build();
        DpEvent statement = opt.privacyEvent(pr, BUDGET);
        OptimizationResult r = opt.optimize(pr, BUDGET, Rngs.seeded(3));
        assertEquals(statement, r.ledger());
        assertTrue(statement instanceof ParallelComposedEvent);
        RunParameters params = r.parameters();
        long parts = (long) (params.real(Param.ROUNDS) * params.real(Param.PHASES));
        assertEquals(parts, ((ParallelComposedEvent) statement).events().size());
        assertTrue(r.privacy().epsilon() <= BUDGET.epsilon() * (1 + 1e-9));
        assertEquals(NeighboringRelation.ADD_OR_REMOVE_ONE, opt.relation());
        PgmdSchedule s = schedule(opt, pr);
        assertEquals(parts * s.phase().steps(), r.steps());
        assertEquals(p, params.real(Param.LP_NORM));
        assertEquals(s.rho(), params.real(Param.WEAK_CONVEXITY));
        assertEquals(s.phase().noiseMultiplier() * s.lipschitz(), params.real(Param.SIGMA), 0.0);
        assertTrue(ConvexSets.l2Ball(2).contains(r.solution(), 1e-9));
        Diagnostics diag = r.nonPrivateDiagnostics();
        assertTrue(diag.has(Diagnostic.NEAR_STATIONARITY) && diag.has(Diagnostic.PROX_GAP));
        double tStar = diag.get(Diagnostic.OUTPUT_INDEX);
        assertTrue(tStar >= 1 && tStar <= s.rounds(), "t* = " + tStar);
        // every record is in one part; a step samples each record of its part with probability q
        double expectedEvaluations = s.phase().steps() * s.phase().samplingProbability() * 3000.0;
        assertEquals(expectedEvaluations, diag.get(Diagnostic.GRADIENT_EVALUATIONS), 0.05 * expectedEvaluations);
    }

    @Test
    void parametersFollowTheorem20Balance() {
        Problem pr = phaseRetrieval(20_000, Synthetic.plantedVector(10, 1, Rngs.seeded(1)), 2);
        PgmdSchedule plan = schedule(ProximallyGuidedMirrorDescent.builder().build(), pr);
        // C = 2·uMax·R = 4, ρ = 2R² = 2, D = 2, κ = 1, ΔF̄ = 2CD = 16
        double stat = Math.sqrt(2 * 16 * 20_000 / (16.0 * 1));
        double priv = Math.cbrt(2 * 16 * 16 * 20_000.0 * 20_000 / (16 * 10 * Math.log(1e5)));
        assertEquals((int) Math.floor(Math.min(stat, priv)), plan.rounds());
        assertEquals(4.0, plan.lipschitz(), 1e-12);
        assertEquals(2.0, plan.rho(), 1e-12);
        assertEquals(PgmdRounds.defaultPhases(20_000.0 / plan.rounds()), plan.phases());
        assertEquals(20_000.0 / (plan.rounds() * plan.phases()), plan.phase().plannedSize(), 1e-9);
    }

    @Test
    void trajectoryDiagnosticSamplesEvenlySpacedRounds() {
        assertEquals(13, Trajectory.round(0, 4, 100)); // midpoints of 4 strata
        assertEquals(38, Trajectory.round(1, 4, 100));
        assertEquals(88, Trajectory.round(3, 4, 100));
        assertEquals(5, Trajectory.round(4, 5, 5));
        assertEquals(1, Trajectory.round(0, 5, 5));
        Problem pr = phaseRetrieval(3000, Synthetic.plantedVector(4, 1, Rngs.seeded(1)), 2);
        OptimizationResult r = ProximallyGuidedMirrorDescent.builder().diagnosticIterations(20).trajectoryPoints(6)
                .diagnostics(true).build().optimize(pr, BUDGET, Rngs.seeded(4));
        assertTrue(r.nonPrivateDiagnostics().get(Diagnostic.EXPECTED_NEAR_STATIONARITY) > 0);
        // diagnostics do not touch the private output: same seed without them, same solution
        OptimizationResult plain = ProximallyGuidedMirrorDescent.builder().diagnosticIterations(20)
                .trajectoryPoints(6).build().optimize(pr, BUDGET, Rngs.seeded(4));
        assertTrue(Arrays.equals(plain.solution().data, r.solution().data));
        assertTrue(plain.nonPrivateDiagnostics().isEmpty());
        assertFalse(plain.parameters().has(Param.PART_SIZE));
    }

    /**
     * Records are labelled and Poisson-sampled independently, so a plan for a declared n is valid with
     * fewer rows: absent records are simply never sampled, and the planned quantities are those of n.
     */
    @Test
    void declaredSizeAboveTheRowsIsAccepted() {
        Problem pr = phaseRetrieval(2500, Synthetic.plantedVector(4, 1, Rngs.seeded(1)), 2);
        ProximallyGuidedMirrorDescent opt = ProximallyGuidedMirrorDescent.builder().build();
        OptimizationResult declared = opt.optimize(pr.withDeclaredSize(3000), BUDGET, Rngs.seeded(5));
        Problem full = phaseRetrieval(3000, Synthetic.plantedVector(4, 1, Rngs.seeded(1)), 2);
        assertEquals(opt.privacyEvent(full, BUDGET), declared.ledger());
        assertEquals(3000.0, declared.parameters().real(Param.DATASET_SIZE));
        assertTrue(declared.privacy().toString().contains("declared public in advance"), declared.privacy().toString());
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
    void convexLossTakesRhoFromTheDomainOrAsDeclared() {
        Problem pr = Problem.of(Synthetic.logistic(4000, Synthetic.plantedVector(3, 1, Rngs.seeded(1)), Rngs.seeded(2))
                .data(), Losses.logistic(), ConvexSets.l2Ball(2));
        // declared rho = 0: the paper default is C/(30 D) with C = L0 R = 1, D = 2
        RunParameters p = ProximallyGuidedMirrorDescent.builder().preset(org.dpopt.optim.Preset.PAPER).build()
                .plan(pr.shape(), BUDGET).parameters();
        assertEquals(1.0 / 60, p.real(Param.WEAK_CONVEXITY), 1e-12);
        // the practical default is C/(D n) = 1/(2 * 4000)
        RunParameters q = ProximallyGuidedMirrorDescent.builder().build().plan(pr.shape(), BUDGET).parameters();
        assertEquals(1.0 / 8000, q.real(Param.WEAK_CONVEXITY), 1e-15);
        assertEquals(1.1 / (10 * 455), ProximallyGuidedMirrorDescent.practicalConvexRho(1.1, 10, 455), 1e-15);
        assertThrows(IllegalArgumentException.class, () -> ProximallyGuidedMirrorDescent.practicalConvexRho(1, 0, 5));
        assertThrows(IllegalArgumentException.class, () -> ProximallyGuidedMirrorDescent.practicalConvexRho(1, 1, 0));
        // with an explicit rho a convex loss is accepted (it is rho-weakly convex for every rho >= 0)
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
