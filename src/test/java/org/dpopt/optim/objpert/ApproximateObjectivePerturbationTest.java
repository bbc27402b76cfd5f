package org.dpopt.optim.objpert;

import static org.dpopt.optim.objpert.ObjPertFixtures.HUGE;
import static org.dpopt.optim.objpert.ObjPertFixtures.assertRefused;
import static org.dpopt.optim.objpert.ObjPertFixtures.classification;
import static org.dpopt.optim.objpert.ObjPertFixtures.referenceSolve;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.accounting.ComposedEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.GaussianMechanism;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.loss.ProblemShape;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.PrivateOptimizerContract;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ApproximateObjectivePerturbationTest {

    @Nested
    class Contract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return ApproximateObjectivePerturbation.builder().build();
        }

        @Override
        protected Problem problem() {
            return Problem.of(classification(300, 4, 37), Losses.logistic(), ConvexSets.l2Ball(2));
        }
    }

    @Test
    void plannedNoiseScalesFollowTheRules() {
        Problem p = Problem.of(classification(400, 5, 23), Losses.logistic(), ConvexSets.l2Ball(2));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        OptimizationResult s = ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).build().optimize(p, b, Rngs.seeded(1));
        // the failure term 1e-3·δ is set aside first, the rest split in two; λ at (ε/2, δ_M/2), α = M²λ/n²,
        // σ_H = z(ε/2, δ_M/2)·2r with r = √(2α/λ) + the objective-noise grid's move of the minimizer,
        // (σ_G/n)·2⁻⁴⁰·√d/2/(2λ)
        double half = 0.5 * 1e-5 * (1 - 1e-3);
        double lam = ObjectivePerturbationNoise.theoremLambda(1, 2, 400, 5, 0.5, half);
        double alpha = 4 * lam / (400.0 * 400);
        assertEquals(lam, s.parameters().real(Param.L2), 1e-15);
        assertEquals(alpha, s.parameters().real(Param.ACCURACY), 1e-20);
        double grid = s.parameters().real(Param.OBJECTIVE_SIGMA) / 400 * 0x1p-40 * Math.sqrt(5) / 2 / (2 * lam);
        double r = Math.sqrt(2 * alpha / lam) + grid;
        assertEquals(GaussianMechanism.noiseMultiplier(0.5, half) * 2 * r, s.parameters().real(Param.SIGMA), 1e-15);
        assertEquals(2 * r, s.parameters().real(Param.SENSITIVITY), 1e-15);
    }

    @Test
    void ledgerEqualsStatementAndTheReportIncludesTheFailureTerm() {
        Problem p = Problem.of(classification(500, 5, 11), Losses.logistic(), ConvexSets.l2Ball(1));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        ApproximateObjectivePerturbation svrg = ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).diagnostics(true).build();
        OptimizationResult s = svrg.optimize(p, b, Rngs.seeded(1));
        assertEquals(svrg.privacyEvent(p, b), s.ledger());
        double half = 0.5 * (1e-5 - 1e-5 * 1e-3);
        double z = GaussianMechanism.noiseMultiplier(0.5, half);
        assertEquals(DpEvents.normalize(ComposedEvent.of(new EpsilonDeltaEvent(0.5, half), new GaussianEvent(z))),
                s.ledger());
        assertEquals(1e-5, s.privacy().delta(), 0); // the report's δ includes the failure term
        assertTrue(s.privacy().epsilon() <= 1 + 1e-12);
        assertEquals(1, s.privacy().epsilon(), 1e-6);
        assertTrue(s.privacy().notes().stream().anyMatch(x -> x.startsWith("delta includes (1 + e^eps) p")),
                s.privacy().toString());
        assertTrue(s.nonPrivateDiagnostics().get(Diagnostic.CERTIFIED_SUBOPTIMALITY)
                <= s.parameters().real(Param.ACCURACY));
    }

    @Test
    void svrgAccuracyCloseToExactAtLargeEpsilon() {
        Dataset data = classification(800, 5, 13);
        Problem p = Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(2));
        double lambda = 0.005;
        DMatrixRMaj ref = referenceSolve(p, lambda, 20000);
        DMatrixRMaj w = ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).lambda(lambda).build()
                .optimize(p, HUGE, Rngs.seeded(2)).solution();
        // r = √(2α/λ) = √2·M/n, σ_H ≈ 2r·z(5e11): the output noise is negligible
        assertEquals(0, Vectors.distance2(w, ref), 1e-2 * 2 * Math.sqrt(2) / 800 + 1e-6);
    }

    @Test
    void theEpochBudgetIsAFunctionOfPublicQuantitiesOnly() {
        // two datasets of the same public shape: one plan, and every run takes exactly its E epochs
        Problem p1 = Problem.of(classification(300, 4, 51), Losses.logistic(), ConvexSets.l2Ball(2));
        Problem p2 = Problem.of(classification(300, 4, 53), Losses.logistic(), ConvexSets.l2Ball(2));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        ApproximateObjectivePerturbation op = ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).diagnostics(true).build();
        RunPlan plan = op.plan(p1.shape(), b);
        assertEquals(plan.parameters(), op.plan(p2.shape(), b).parameters());
        long e = (long) plan.parameters().real(Param.EPOCHS);
        // E from B = σ_G√(d + 2√(d x) + 2x), x = ln(2/p), and failure probability p/2: no G, no data
        double p = ObjectivePerturbationNoise.defaultFailureProbability(1, 1e-5);
        double sigma = plan.parameters().real(Param.OBJECTIVE_SIGMA);
        double bound = ObjectivePerturbationNoise.noiseNormBound(sigma, 4, p / 2);
        assertEquals(bound, plan.parameters().real(Param.NOISE_NORM_BOUND), 0);
        double lambda = plan.parameters().real(Param.L2);
        assertEquals(Svrg.epochBudget(lambda, 0.25, 1, bound / 300, 0, 2, false,
                plan.parameters().real(Param.ACCURACY), p / 2), e);
        assertEquals(e * plan.parameters().real(Param.INNER_STEPS), plan.parameters().real(Param.STEPS), 0);
        for (Problem q : new Problem[] {p1, p2}) {
            for (long seed : new long[] {1, 2}) {
                OptimizationResult r = op.run(q, plan, Rngs.seeded(seed));
                assertEquals(e, r.nonPrivateDiagnostics().get(Diagnostic.SOLVER_STEPS));
                assertEquals(0, r.nonPrivateDiagnostics().get(Diagnostic.SOLVER_FALLBACK));
            }
        }
    }

    @Test
    void aFailedSvrgRunReleasesADataIndependentPointAndNothingElse() {
        // α = 1e-300 cannot be certified: every run fails, on two datasets of the same shape
        Problem p1 = Problem.of(classification(300, 4, 17), Losses.logistic(), ConvexSets.l2Ball(1));
        Problem p2 = Problem.of(classification(300, 4, 19), Losses.logistic(), ConvexSets.l2Ball(1));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        ApproximateObjectivePerturbation op = ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).accuracy(1e-300).build();
        OptimizationResult r1 = op.optimize(p1, b, Rngs.seeded(3));
        OptimizationResult r2 = op.optimize(p2, b, Rngs.seeded(3));
        // same draws of G and H, and SVRG's index draws do not depend on the data: the same point
        assertArrayEquals(r1.solution().data, r2.solution().data, 0.0);
        assertEquals(r1.privacy().toString(), r2.privacy().toString());
        assertEquals(r1.parameters(), r2.parameters());
        assertTrue(r1.nonPrivateDiagnostics().isEmpty());
        assertEquals(1e-5, r1.privacy().delta(), 0);
        assertTrue(r1.privacy().epsilon() <= 1 + 1e-12);
        assertEquals(1e-8, r1.parameters().real(Param.FAILURE_DELTA), 1e-20);
        assertTrue(r1.privacy().notes().stream().anyMatch(x -> x.startsWith("delta includes (1 + e^eps) p")));
        OptimizationResult d = op.toBuilder().diagnostics(true).build().optimize(p1, b, Rngs.seeded(3));
        assertEquals(2, d.nonPrivateDiagnostics().get(Diagnostic.SOLVER_FALLBACK));
        assertArrayEquals(r1.solution().data, d.solution().data, 0.0);
    }

    @Test
    void fixedEpochsBelowTheCertifiedBudgetAreRefusedAtPlanTime() {
        Problem p = Problem.of(classification(300, 4, 17), Losses.logistic(), ConvexSets.l2Ball(1));
        assertRefused(ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).epochs(1).build(), p, PrivacyBudget.of(1, 1e-5),
                "epochs must be at least the certified budget");
        RunPlan plan = ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).build().plan(p.shape(), PrivacyBudget.of(1, 1e-5));
        int e = (int) plan.parameters().real(Param.EPOCHS);
        assertEquals(e + 5, ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).epochs(e + 5).build()
                .plan(p.shape(), PrivacyBudget.of(1, 1e-5)).parameters().real(Param.EPOCHS), 0);
    }

    @Test
    void refusesEveryUnsupportedConfiguration() {
        Dataset data = classification(200, 3, 19);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        ApproximateObjectivePerturbation approx = ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).build();
        assertRefused(approx, Problem.of(data, Losses.absolute(), ConvexSets.l2Ball(1)), b, "smoothness");
        // the approximate variant needs β ≤ (ε/2) n λ: λ = 2e-3 passes for the exact variant, fails here
        ObjectivePerturbation.builder().lambda(2e-3).build().plan(Problem.of(data, Losses.logistic(),
                ConvexSets.l2Ball(1)).shape(), b);
        assertRefused(ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).lambda(2e-3).build(),
                Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(1)), b, "eps/2*n*lambda");
        assertRefused(ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).lambda(0.1).build(),
                Problem.of(data, Losses.logistic()), b, "accuracy alpha");
        assertRefused(approx, Problem.of(data, Losses.logistic()), b, "domain radius M");
        // any closed convex set is fine for SVRG
        approx.plan(Problem.of(data, Losses.logistic(), ConvexSets.box(-1, 1)).shape(), b);
        assertThrows(IllegalArgumentException.class, () -> ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).accuracy(-1));
        assertThrows(IllegalArgumentException.class, () -> ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).epochs(0));
        assertThrows(IllegalArgumentException.class,
                () -> ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).failureProbability(1));
    }

    @Test
    void practicalPresetFundsThePerturbationAndKeepsTheOutputNoiseSmall() {
        // practical: 0.9 eps for the perturbation, alpha = lambda r^2/2 with r = 1e-3 sigma_G/(2 n lambda), so the
        // output noise is a small fraction of the perturbation's own scale; the paper's alpha = M^2 lambda/n^2
        // at M = 20 and n = 300 gives an output noise of the order of the model itself
        ProblemShape shape = Problem.of(classification(300, 4, 17), Losses.logistic()).shape();
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        RunParameters practical = ApproximateObjectivePerturbation.builder().build().plan(shape, b).parameters();
        assertEquals("practical", practical.get(Param.PRESET));
        // lambda = 10 beta/(s eps n) on R^d, s = 0.9 the perturbation's share of eps
        assertEquals(10 * (shape.smoothness() / (0.9 * 300)), practical.real(Param.L2), 1e-15);
        double scale = practical.real(Param.OBJECTIVE_SIGMA) / (2 * 300 * practical.real(Param.L2));
        assertTrue(practical.real(Param.SIGMA) < 0.2 * scale, practical.real(Param.SIGMA) + " vs " + scale);
        RunParameters paper = ApproximateObjectivePerturbation.builder().preset(Preset.PAPER).build()
                .plan(Problem.of(classification(300, 4, 17), Losses.logistic(), ConvexSets.l2Ball(20)).shape(), b)
                .parameters();
        assertEquals("paper", paper.get(Param.PRESET));
        assertTrue(paper.real(Param.SIGMA) > 10 * practical.real(Param.SIGMA), paper.real(Param.SIGMA) + " vs "
                + practical.real(Param.SIGMA));
    }
}
