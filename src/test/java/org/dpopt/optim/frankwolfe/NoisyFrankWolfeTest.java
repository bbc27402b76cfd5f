package org.dpopt.optim.frankwolfe;

import static org.dpopt.optim.frankwolfe.FrankWolfeTests.sparse;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.AdvancedCompositionAccountant;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.data.Dataset;
import org.dpopt.data.SparseLogistic;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.geometry.Polytope;
import org.dpopt.geometry.Polytopes;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
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
import org.dpopt.optim.core.Mutation;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class NoisyFrankWolfeTest {

    @Nested
    class Contract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return NoisyFrankWolfe.builder().build();
        }

        @Override
        protected Problem problem() {
            return sparse(300, 20, 40);
        }
    }

    @Nested
    class SmoothedHingeContract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return NoisyFrankWolfe.builder().preset(Preset.PAPER).domain(Polytopes.simplex(3.0)).supNormBound(1.0).build();
        }

        @Override
        protected Problem problem() {
            Problem p = sparse(300, 20, 41);
            return Problem.of(p.data(), Losses.hinge());
        }
    }

    @Test
    void statementIsTheCalibratedSelectionsAndTheScaleIsSound() {
        Problem p = sparse(300, 40, 1);
        PrivacyBudget budget = PrivacyBudget.of(1.0, 1e-6);
        NoisyFrankWolfe fw = NoisyFrankWolfe.builder().preset(Preset.PAPER).build();
        RunPlan plan = fw.plan(p.shape(), budget);
        RunParameters params = plan.parameters();
        long t = (Long) params.get(Param.STEPS);
        assertTrue(t >= 1);
        // the per-step ε0 is the largest certified within budget: 1.01·ε0 must exceed it
        double eps0 = params.real(Param.EPSILON_PER_STEP);
        assertEquals(DpEvents.normalize(new SelfComposedEvent(new EpsilonDeltaEvent(eps0, 0), t)), plan.statement());
        AdvancedCompositionAccountant acc = new AdvancedCompositionAccountant(NeighboringRelation.REPLACE_ONE);
        assertTrue(acc.epsilon(new SelfComposedEvent(new EpsilonDeltaEvent(eps0 * 1.01, 0), t), 1e-6) > 1.0);
        // the Laplace scale is the sound 2Δ/ε0 with Δ = 2 L0 R r / n
        assertEquals(2 * 10.0 / 300, params.real(Param.SCORE_SENSITIVITY), 1e-15);
        assertEquals(2 * params.real(Param.SCORE_SENSITIVITY) / eps0, params.real(Param.LAPLACE_SCALE), 1e-12);
        assertEquals(80L, params.get(Param.VERTICES));
        assertEquals("last", params.get(Param.OUTPUT));
        OptimizationResult r = fw.run(p, plan, Rngs.seeded(2));
        assertEquals(plan.statement(), r.ledger());
        assertTrue(r.privacy().epsilon() <= 1.0 * (1 + 1e-9));
        assertTrue(p.domain().contains(r.solution(), 1e-9));
    }

    @Test
    void declaredSensitivityHoldsOnAdversarialNeighbours() {
        // Adversarial replace-one pairs: row 0 is replaced by ±R·e_k with extreme labels so that φ′ takes
        // opposite clamped values ±L0 (squared loss with out-of-range labels ±100: |φ′| clamps to L0), and by
        // random unit rows for the logistic loss. Scores ⟨v, ∇F̂(w)⟩ are compared at vertices and random
        // interior points; the max change must be ≤ Δ = 2 L0 R r / n and attained (≥ 0.99 Δ) for the
        // squared-loss pair, so the declared bound is neither violated nor vacuous.
        int n = 50;
        int d = 6;
        double r = 3.0;
        Polytope ball = Polytopes.l1Ball(r);
        UniformRandomProvider rng = Rngs.seeded(4);
        double[][] rows = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < d; k++) {
                rows[i][k] = (rng.nextDouble() - 0.5) * 0.6;
            }
            y[i] = rng.nextBoolean() ? 1 : -1;
        }
        for (GeneralizedLinearLoss loss : new GeneralizedLinearLoss[] {Losses.squared(1, 1), Losses.logistic()}) {
            Problem base = Problem.of(Dataset.of(rows, y, 1.0), loss, ball);
            double declared = new NoisyFrankWolfeRules(base.shape(), ball, Double.POSITIVE_INFINITY).sensitivity(loss);
            assertEquals(2 * loss.scalarLipschitz() * r / n, declared, 1e-15);
            double worst = 0;
            DMatrixRMaj w = new DMatrixRMaj(d, 1);
            DMatrixRMaj g1 = new DMatrixRMaj(d, 1);
            DMatrixRMaj g2 = new DMatrixRMaj(d, 1);
            double[] s1 = new double[2 * d];
            double[] s2 = new double[2 * d];
            boolean squared = loss.scalarSmoothness() == 1;
            for (int trial = 0; trial < 200; trial++) {
                double[][] a = AdversarialNeighbours.copy(rows);
                double[][] b = AdversarialNeighbours.copy(rows);
                double[] ya = y.clone();
                double[] yb = y.clone();
                neighbours(a[0], b[0], ya, yb, squared, trial % d, rng);
                ball.vertex(2 * (trial % d) + (trial % 2), w);
                if (trial % 3 == 0) {
                    for (int j = 0; j < d; j++) {
                        w.data[j] = (rng.nextDouble() - 0.5) * r / d;
                    }
                }
                Problem.of(Dataset.of(a, ya, 1.0), loss, ball).fullGradient(w, g1);
                Problem.of(Dataset.of(b, yb, 1.0), loss, ball).fullGradient(w, g2);
                ball.scores(g1, s1);
                ball.scores(g2, s2);
                worst = Math.max(worst, AdversarialNeighbours.maxAbs(s1, s2));
            }
            assertTrue(worst <= declared * (1 + 1e-12), loss + ": worst " + worst + " > declared " + declared);
            if (squared) {
                assertTrue(worst >= 0.99 * declared, "worst " + worst + " is far below the declared " + declared);
            }
        }
    }

    /** Row 0 of both neighbours: e_k with labels ∓100 (squared loss), else random unit rows with labels ±1. */
    private static void neighbours(double[] a, double[] b, double[] ya, double[] yb, boolean squared, int k,
            UniformRandomProvider rng) {
        int d = a.length;
        if (squared) {
            java.util.Arrays.fill(a, 0);
            java.util.Arrays.fill(b, 0);
            a[k] = 1.0;
            b[k] = 1.0;
            ya[0] = -100;
            yb[0] = 100;
            return;
        }
        double na = 0;
        double nb = 0;
        for (int j = 0; j < d; j++) {
            a[j] = rng.nextDouble() - 0.5;
            b[j] = rng.nextDouble() - 0.5;
            na += a[j] * a[j];
            nb += b[j] * b[j];
        }
        for (int j = 0; j < d; j++) {
            a[j] /= Math.sqrt(na) * (1 + 1e-12);
            b[j] /= Math.sqrt(nb) * (1 + 1e-12);
        }
        ya[0] = 1;
        yb[0] = -1;
    }

    @Test
    void convergesToTheConstrainedOptimumWhenNoiseIsNegligible() {
        // ε = 1e4: the Laplace scale is ~1e-5 relative to the scores, so the run is plain FW with
        // μ_t = 2/(t+2); the FW gap of a convex smooth objective must fall like O(Γ/T).
        Problem p = sparse(400, 20, 5);
        Dataset pop = SparseLogistic.sample(20000, SparseLogistic.wStar(20, 5, 2.0), 5, Rngs.seeded(55));
        OptimizationResult r = NoisyFrankWolfe.builder().iterations(400).populationSample(pop).diagnostics(true)
                .build().optimize(p, PrivacyBudget.of(1e4, 1e-6), Rngs.seeded(6));
        // population risk diagnostic: the risk on the fresh sample, close to the training loss (n = 400, d = 20)
        double popRisk = r.nonPrivateDiagnostics().get(Diagnostic.POPULATION_RISK);
        double trainLoss = r.nonPrivateDiagnostics().get(Diagnostic.TRAIN_LOSS);
        assertEquals(p.withData(pop).empiricalRisk(r.solution()), popRisk, 1e-12);
        assertTrue(popRisk > trainLoss - 0.05);
        double gap = r.nonPrivateDiagnostics().get(Diagnostic.FRANK_WOLFE_GAP);
        assertTrue(gap < 0.05, "gap " + gap);
        assertEquals(400.0 * 400, r.nonPrivateDiagnostics().get(Diagnostic.GRADIENT_EVALUATIONS), 0);
        OptimizationResult r2 = NoisyFrankWolfe.builder().iterations(25).build()
                .optimize(p, PrivacyBudget.of(1e4, 1e-6), Rngs.seeded(6));
        assertTrue(p.empiricalRisk(r2.solution()) > trainLoss);
    }

    @Test
    void nonSmoothLossIsSmoothedByBisection() {
        // hinge: the run uses the Moreau envelope with β ∝ √(nε); β quadruples when nε grows 16-fold
        Problem p = Problem.of(sparse(400, 20, 9).data(), Losses.hinge(), Polytopes.l1Ball(10));
        PrivacyBudget b = PrivacyBudget.of(2.0, 1e-6);
        NoisyFrankWolfe fw = NoisyFrankWolfe.builder().preset(Preset.PAPER).diagnostics(true).build();
        OptimizationResult r = fw.optimize(p, b, Rngs.seeded(3));
        assertEquals(fw.privacyEvent(p, b), r.ledger());
        double beta = r.parameters().real(Param.SMOOTHNESS);
        double beta16 = new NoisyFrankWolfeRules(p.shape(), Polytopes.l1Ball(10), Double.POSITIVE_INFINITY)
                .smoothing(Losses.hinge(), PrivacyBudget.of(32.0, 1e-6));
        assertEquals(4.0, beta16 / beta, 1e-9);
        // the private model is better than the starting vertex on the training hinge loss
        DMatrixRMaj w0 = new DMatrixRMaj(20, 1);
        Polytopes.l1Ball(10).vertex(0, w0);
        assertTrue(r.nonPrivateDiagnostics().get(Diagnostic.TRAIN_LOSS) < p.empiricalRisk(w0));
        assertTrue(r.nonPrivateDiagnostics().has(Diagnostic.FRANK_WOLFE_GAP_SMOOTHED));
        assertFalse(r.nonPrivateDiagnostics().has(Diagnostic.FRANK_WOLFE_GAP));
    }

    @Test
    void theoremStepsGrowLikeNEpsilonToTwoThirds() {
        Problem small = sparse(200, 30, 7);
        Problem big = sparse(1600, 30, 7);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        Polytope ball = Polytopes.l1Ball(10);
        double t1 = new NoisyFrankWolfeRules(small.shape(), ball, Double.POSITIVE_INFINITY)
                .theoremSteps(Losses.logistic(), b);
        double t2 = new NoisyFrankWolfeRules(big.shape(), ball, Double.POSITIVE_INFINITY)
                .theoremSteps(Losses.logistic(), b);
        assertEquals(4.0, t2 / t1, 1e-9); // (8)^{2/3}
    }

    @Test
    void aDeclaredSupNormBoundTightensTheSensitivityAndIsEnforced() {
        // rows with ‖x‖_∞ ≤ 0.1 and R = 1: Δ = 2L₀·min(R·r, B∞·r)/n falls tenfold
        Problem p = sparse(300, 20, 10);
        double supNorm = SparseLogistic.supNorm(20, 5);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        RunParameters plain = NoisyFrankWolfe.builder().preset(Preset.PAPER).build().plan(p.shape(), b).parameters();
        RunParameters declared = NoisyFrankWolfe.builder().preset(Preset.PAPER).supNormBound(supNorm).build().plan(p.shape(), b)
                .parameters();
        assertEquals(Math.min(1.0, supNorm) * plain.real(Param.SCORE_SENSITIVITY),
                declared.real(Param.SCORE_SENSITIVITY), 1e-15);
        assertEquals(supNorm, declared.real(Param.SUP_NORM_BOUND), 0);
        assertThrows(IllegalArgumentException.class, () -> NoisyFrankWolfe.builder().preset(Preset.PAPER).supNormBound(supNorm / 10)
                .build().optimize(p, b, Rngs.seeded(1)));
    }

    @Test
    void diagnosticsDoNotChangeTheReleaseAndEverySelectionGoesThroughTheRunCore() {
        Problem p = sparse(300, 20, 11);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        OptimizationResult honest = NoisyFrankWolfe.builder().preset(Preset.PAPER).build().optimize(p, b, Rngs.seeded(5));
        OptimizationResult withDiagnostics = NoisyFrankWolfe.builder().preset(Preset.PAPER).diagnostics(true).build()
                .optimize(p, b, Rngs.seeded(5));
        assertArrayEquals(honest.solution().data, withDiagnostics.solution().data, 0);
        // rnm-half-scale and half-noise draw every selection at half the Laplace scale, the ledger unchanged
        for (Mutation m : new Mutation[] {Mutation.RNM_HALF_SCALE, Mutation.HALF_NOISE}) {
            OptimizationResult mutant = NoisyFrankWolfe.builder().preset(Preset.PAPER).mutation(m).build().optimize(p, b, Rngs.seeded(5));
            assertEquals(honest.ledger(), mutant.ledger());
            assertFalse(java.util.Arrays.equals(honest.solution().data, mutant.solution().data), m.cliName());
            assertTrue(mutant.privacy().toString().contains("MUTANT " + m.cliName()));
        }
    }

    @Test
    void refusesUnsupportedConfigurations() {
        Problem p = sparse(50, 10, 8);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        NoisyFrankWolfe fw = NoisyFrankWolfe.builder().preset(Preset.PAPER).build();
        assertThrows(IllegalArgumentException.class,
                () -> fw.plan(Problem.of(p.data(), Losses.logistic(), ConvexSets.l2Ball(1)).shape(), b));
        assertThrows(IllegalArgumentException.class, () -> NoisyFrankWolfe.builder().preset(Preset.PAPER)
                .domain(Polytopes.vertices(new double[11][11])).build().plan(p.shape(), b));
        assertThrows(IllegalArgumentException.class, () -> NoisyFrankWolfe.builder().preset(Preset.PAPER)
                .accountant(new AdvancedCompositionAccountant(NeighboringRelation.ADD_OR_REMOVE_ONE)).build()
                .plan(p.shape(), b));
        assertThrows(IllegalArgumentException.class, () -> NoisyFrankWolfe.builder().iterations(0));
        assertThrows(IllegalArgumentException.class, () -> NoisyFrankWolfe.builder().supNormBound(0));
        assertThrows(IllegalArgumentException.class, () -> fw.optimize(p, b, null));
        assertThrows(IllegalArgumentException.class, () -> fw.optimize(p, null, Rngs.seeded(1)));
    }

    @Test
    void practicalDefaultSelectsVerticesOnPoissonBatchesAccountedAsDpSgd() {
        Problem sp = sparse(1000, 20, 42);
        Problem p = Problem.of(sp.data(), sp.loss()); // unconstrained: the public radius rule
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        NoisyFrankWolfe fw = NoisyFrankWolfe.builder().build();
        assertEquals(NeighboringRelation.ADD_OR_REMOVE_ONE, fw.relation());
        RunPlan plan = fw.plan(p.shape(), b);
        assertTrue(NoisyFrankWolfe.onBatches(plan));
        double r = 2 * Math.sqrt(1000 * 1.0);
        assertEquals(r, plan.parameters().real(Param.RADIUS), 1e-12);
        assertEquals(100, plan.parameters().real(Param.BATCH_SIZE), 0);
        double z = plan.parameters().real(Param.NOISE_MULTIPLIER);
        org.dpopt.accounting.PoissonSampledEvent step = new org.dpopt.accounting.PoissonSampledEvent(0.1,
                new org.dpopt.accounting.GaussianEvent(z));
        assertEquals(new SelfComposedEvent(step, 300), plan.statement());
        OptimizationResult res = fw.run(p, plan, Rngs.seeded(8));
        assertEquals(plan.statement(), res.ledger());
        assertTrue(res.privacy().epsilon() <= 1 + 1e-9);
        assertTrue(Polytopes.l1Ball(r).contains(res.solution(), 1e-9));
        // a fixed T keeps the report-noisy-max schedule of the paper (replace-one)
        NoisyFrankWolfe fixed = NoisyFrankWolfe.builder().iterations(5).build();
        assertEquals(NeighboringRelation.REPLACE_ONE, fixed.relation());
        assertFalse(NoisyFrankWolfe.onBatches(fixed.plan(sp.shape(), b)));
        // a declared sup-norm bound is for the report-noisy-max scores: refused on batches
        assertThrows(IllegalArgumentException.class,
                () -> NoisyFrankWolfe.builder().supNormBound(1).build().plan(sp.shape(), b));
        // the paper preset refuses an unconstrained problem (it has no radius rule)
        assertThrows(IllegalArgumentException.class,
                () -> NoisyFrankWolfe.builder().preset(Preset.PAPER).build().plan(p.shape(), b));
    }
}
