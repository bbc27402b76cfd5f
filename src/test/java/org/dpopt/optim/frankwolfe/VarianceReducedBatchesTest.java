package org.dpopt.optim.frankwolfe;

import static org.dpopt.optim.frankwolfe.FrankWolfeTests.sparse;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.Polytope;
import org.dpopt.geometry.Polytopes;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.Mutation;
import org.dpopt.optim.core.ReleaseObserver;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/** The practical default of vr-frank-wolfe: Frank–Wolfe on Poisson batches with the recursive estimator. */
class VarianceReducedBatchesTest {

    private static VarianceReducedBatches.Schedule schedule(RunPlan plan) {
        return plan.detail(VarianceReducedBatches.Schedule.class);
    }

    @Test
    void statesTheBatchSchedulesEventAndTheLedgerEqualsIt() {
        Problem p = sparse(2000, 20, 4);
        PrivacyBudget budget = PrivacyBudget.of(1.0, 1e-6);
        VarianceReducedFrankWolfe vr = VarianceReducedFrankWolfe.builder().build();
        assertEquals(NeighboringRelation.ADD_OR_REMOVE_ONE, vr.relation());
        RunPlan plan = vr.plan(p.shape(), budget);
        assertTrue(VarianceReducedFrankWolfe.onBatches(plan));
        assertEquals(NeighboringRelation.ADD_OR_REMOVE_ONE, plan.relation());
        PoissonBatchFrankWolfe.Schedule s = schedule(plan).batches();
        assertEquals(200, plan.parameters().real(Param.BATCH_SIZE), 0); // min(256, n/10)
        assertEquals(300, s.steps()); // 30 epochs of n/b = 10 steps
        double z = plan.parameters().real(Param.NOISE_MULTIPLIER);
        PoissonSampledEvent step = new PoissonSampledEvent(0.1, new GaussianEvent(z));
        assertEquals(step, s.stepEvent());
        assertEquals(new SelfComposedEvent(step, 300), plan.statement());
        // the same statement and noise multiplier as the plain batch schedule over the same polytope
        RunPlan plain = NoisyFrankWolfe.builder().domain((Polytope) p.domain()).build().plan(p.shape(), budget);
        assertEquals(plain.statement(), plan.statement());
        assertEquals(plain.parameters().real(Param.NOISE_MULTIPLIER), z, 0);
        assertEquals("practical", plan.parameters().get(Param.PRESET));
        assertEquals("last", plan.parameters().get(Param.OUTPUT));
        OptimizationResult r = vr.run(p, plan, Rngs.seeded(2));
        assertEquals(plan.statement(), r.ledger());
        assertTrue(r.privacy().epsilon() <= 1.0 * (1 + 1e-9));
        assertTrue(p.domain().contains(r.solution(), 1e-9));
    }

    @Test
    void anUnconstrainedProblemGetsTheL1BallOfNoisyFrankWolfesRule() {
        Problem p = sparse(3000, 10, 5);
        Problem free = Problem.of(p.data(), Losses.logistic());
        PrivacyBudget budget = PrivacyBudget.of(2.0, 1e-6);
        RunPlan plan = VarianceReducedFrankWolfe.builder().build().plan(free.shape(), budget);
        double r = 2 * Math.sqrt(3000 * 2.0);
        assertEquals(r, plan.parameters().real(Param.RADIUS), 1e-12);
        Polytope set = (Polytope) schedule(plan).batches().set();
        assertEquals(20, set.vertexCount(10)); // the vertices ±r e_k of the l1 ball
        assertEquals(r, set.maxVertexNorm1(10), 1e-12);
        assertEquals(2 * r, plan.parameters().real(Param.DIAMETER), 1e-9);
        OptimizationResult res = VarianceReducedFrankWolfe.builder().build().run(free, plan, Rngs.seeded(1));
        assertTrue(Polytopes.l1Ball(r).contains(res.solution(), 1e-9));
        assertEquals(plan.statement(), res.ledger());
    }

    @Test
    void theWeightsAreAPublicDeterministicRecursion() {
        Problem p = sparse(5000, 20, 6);
        PrivacyBudget budget = PrivacyBudget.of(1.0, 1e-6);
        RunPlan a = VarianceReducedFrankWolfe.builder().build().plan(p.shape(), budget);
        // another dataset of the same public shape: the same rule
        Problem q = sparse(5000, 20, 99);
        RunPlan b = VarianceReducedFrankWolfe.builder().build().plan(q.shape(), budget);
        VarianceReducedBatches.Rule rule = schedule(a).rule();
        assertEquals(rule, schedule(b).rule());
        // from the published constants: L = L0 R, drift = beta0 R^2 diam2 = smoothness * diameter, and the
        // floor min(1, 2 z sqrt(d) / b)
        assertEquals(schedule(a).batches().clip(), rule.lipschitz(), 0);
        assertEquals(a.parameters().real(Param.SMOOTHNESS) * a.parameters().real(Param.DIAMETER), rule.drift(), 1e-12);
        double nu = a.parameters().real(Param.NOISE_MULTIPLIER) * Math.sqrt(20) / a.parameters().real(Param.BATCH_SIZE);
        assertTrue(2 * nu < 1, "nu = " + nu);
        assertEquals(2 * nu, rule.floor(), 1e-12);
        // a noisier plan (a smaller budget on fewer rows): the floor is 1, every step an anchor
        RunPlan noisy = VarianceReducedFrankWolfe.builder().build().plan(sparse(300, 20, 6).shape(),
                PrivacyBudget.of(0.5, 1e-6));
        assertEquals(1.0, schedule(noisy).rule().floor(), 0);
        VarianceReducedBatches.Weights anchors = schedule(noisy).rule().start();
        for (int t = 0; t < 200; t++) {
            anchors.next();
            assertEquals(1.0, anchors.weight(), 0);
        }
        double l = rule.lipschitz();
        VarianceReducedBatches.Weights w1 = rule.start();
        VarianceReducedBatches.Weights w2 = new VarianceReducedBatches.Rule(l, rule.drift(), rule.floor()).start();
        double bound = 0;
        boolean reduced = false;
        for (long t = 0; t < 300; t++) {
            w1.next();
            w2.next();
            assertEquals(w1.weight(), w2.weight(), 0);
            assertEquals(w1.clip(), w2.clip(), 0);
            double wt = w1.weight();
            assertTrue(wt >= rule.floor() && wt <= 1, "a_t = " + wt);
            double dt = rule.differenceBound(t);
            if (t == 0 || dt >= l) {
                assertEquals(1.0, wt, 0, "an anchor while the steps are long, t = " + t);
                assertEquals(l, w1.clip(), 0);
            } else {
                assertEquals(wt * l + (1 - wt) * dt, w1.clip(), 1e-15);
            }
            // the error-variance bound V_t never exceeds a fresh anchor's L^2
            bound = (1 - wt) * (1 - wt) * bound + w1.clip() * w1.clip();
            assertTrue(bound <= l * l * (1 + 1e-12), "V_" + t + " = " + bound);
            reduced |= wt < 0.5;
        }
        assertTrue(reduced, "short late steps must give difference-dominated estimates");
        assertEquals(2 * rule.drift() / 11, rule.differenceBound(10), 1e-15);
    }

    @Test
    void theKernelEqualsADirectComputation() {
        UniformRandomProvider rng = Rngs.seeded(3);
        int n = 40;
        int d = 6;
        double[][] rows = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < d; k++) {
                rows[i][k] = (rng.nextDouble() - 0.5) * 0.4;
            }
            y[i] = rng.nextBoolean() ? 1 : 0;
        }
        Dataset data = Dataset.of(rows, y, 1.0);
        GeneralizedLinearLoss loss = Losses.logistic();
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj prev = new DMatrixRMaj(d, 1);
        for (int k = 0; k < d; k++) {
            w.data[k] = rng.nextDouble() * 4 - 2;
            prev.data[k] = rng.nextDouble() * 4 - 2;
        }
        int[] idx = {3, 0, 17, 39, 41, 8, 8, 25};
        double[] weights = {1, 1, 0, 1, 1, 1, 1, 1}; // a padding slot and a row beyond n are skipped
        for (double keep : new double[] {0, 0.3, 1}) {
            for (double clip : new double[] {1e-3, 0.05, Double.POSITIVE_INFINITY}) {
                DMatrixRMaj got = new DMatrixRMaj(d, 1);
                long used = VarianceReducedBatches.addBatch(data, loss, idx, weights, idx.length, w, prev, keep, clip,
                        got);
                DMatrixRMaj want = new DMatrixRMaj(d, 1);
                DMatrixRMaj gw = new DMatrixRMaj(d, 1);
                DMatrixRMaj gp = new DMatrixRMaj(d, 1);
                for (int a = 0; a < idx.length; a++) {
                    if (weights[a] == 0 || idx[a] >= n) {
                        continue;
                    }
                    Problem one = Problem.of(data.subset(new int[] {idx[a]}), loss);
                    one.fullGradient(w, gw);
                    one.fullGradient(prev, gp);
                    Vectors.axpy(-keep, gp, gw);
                    Vectors.clipL2(gw, clip);
                    Vectors.axpy(1.0, gw, want);
                }
                assertEquals(6, used);
                assertArrayEquals(want.data, got.data, 1e-14, "keep " + keep + ", clip " + clip);
            }
        }
    }

    @Test
    void theClipChangesNoValidRowAtTheIteratesOfARun() {
        // the bound a L + (1 - a) Delta_t holds for real steps w_t = (1 - mu) w_{t-1} + mu v over W
        Problem p = sparse(500, 12, 7);
        Polytope set = (Polytope) p.domain();
        RunPlan plan = VarianceReducedFrankWolfe.builder().build().plan(p.shape(), PrivacyBudget.of(1, 1e-6));
        VarianceReducedBatches.Rule rule = schedule(plan).rule();
        UniformRandomProvider rng = Rngs.seeded(8);
        int[] idx = new int[500];
        double[] ones = new double[500];
        for (int i = 0; i < 500; i++) {
            idx[i] = i;
            ones[i] = 1;
        }
        DMatrixRMaj prev = new DMatrixRMaj(12, 1);
        set.vertex(0, prev);
        VarianceReducedBatches.Weights weights = rule.start();
        for (long t = 0; t < 200; t++) {
            weights.next();
            DMatrixRMaj w = prev.copy();
            set.moveToward(rng.nextInt(set.vertexCount(12)), 2.0 / (t + 1), w); // mu_{t-1} = 2/(t + 1)
            double keep = 1 - weights.weight();
            DMatrixRMaj clipped = new DMatrixRMaj(12, 1);
            DMatrixRMaj free = new DMatrixRMaj(12, 1);
            VarianceReducedBatches.addBatch(p.data(), (GeneralizedLinearLoss) p.loss(), idx, ones, 500, w, prev, keep,
                    weights.clip(), clipped);
            VarianceReducedBatches.addBatch(p.data(), (GeneralizedLinearLoss) p.loss(), idx, ones, 500, w, prev, keep,
                    Double.POSITIVE_INFINITY, free);
            assertArrayEquals(free.data, clipped.data, 0, "t = " + t);
            prev = w;
        }
    }

    @Test
    void everyReleaseGoesThroughTheRunCoreAtTheRulesSensitivity() {
        Problem p = sparse(1000, 10, 9);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        List<Double> sens = new ArrayList<>();
        List<DpEvent> events = new ArrayList<>();
        ReleaseObserver o = new ReleaseObserver() {
            @Override
            public void gaussian(DMatrixRMaj value, double sensitivity, DpEvent event) {
                sens.add(sensitivity);
                events.add(event);
            }
        };
        OptimizationResult honest = VarianceReducedFrankWolfe.builder().observer(o).build().optimize(p, b,
                Rngs.seeded(4));
        RunPlan plan = honest.plan();
        PoissonBatchFrankWolfe.Schedule s = schedule(plan).batches();
        assertEquals(s.steps(), sens.size());
        VarianceReducedBatches.Weights w = schedule(plan).rule().start();
        for (int t = 0; t < sens.size(); t++) {
            w.next();
            assertEquals(w.clip(), sens.get(t), 0);
            assertEquals(s.stepEvent(), events.get(t));
        }
        OptimizationResult mutant = VarianceReducedFrankWolfe.builder().mutation(Mutation.HALF_NOISE).build()
                .optimize(p, b, Rngs.seeded(4));
        assertEquals(honest.ledger(), mutant.ledger());
        assertFalse(java.util.Arrays.equals(honest.solution().data, mutant.solution().data));
        assertTrue(mutant.privacy().toString().contains("MUTANT half-noise"), mutant.privacy().toString());
    }

    @Test
    void makesProgressWithAGenerousBudgetAndReportsItsDiagnostics() {
        Problem p = sparse(20000, 20, 6);
        Polytope set = (Polytope) p.domain();
        DMatrixRMaj w0 = new DMatrixRMaj(20, 1);
        set.vertex(0, w0);
        double gap0 = FrankWolfeSupport.frankWolfeGap(p, set, w0);
        OptimizationResult r = VarianceReducedFrankWolfe.builder().diagnostics(true).build()
                .optimize(p, PrivacyBudget.of(50, 1e-6), Rngs.seeded(7));
        double gap = r.nonPrivateDiagnostics().get(Diagnostic.FRANK_WOLFE_GAP);
        assertEquals(FrankWolfeSupport.frankWolfeGap(p, set, r.solution()), gap, 0);
        assertTrue(gap < 0.1 * gap0, "gap " + gap + " vs start " + gap0);
        assertEquals(p.empiricalRisk(r.solution()), r.nonPrivateDiagnostics().get(Diagnostic.TRAIN_LOSS), 0);
        double evals = r.nonPrivateDiagnostics().get(Diagnostic.GRADIENT_EVALUATIONS);
        // about 30 epochs of rows, most of them read at two iterates
        assertTrue(evals > 30 * 20000 && evals < 2 * 31 * 20000, "evaluations " + evals);
        assertFalse(r.nonPrivateDiagnostics().asMap().containsKey(Diagnostic.OUTPUT_INDEX.key()));
    }

    @Test
    void refusesBadInputs() {
        Problem p = sparse(400, 10, 9);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        VarianceReducedFrankWolfe vr = VarianceReducedFrankWolfe.builder().build();
        // a loss without a finite smoothness bound, or with an inexact derivative
        assertThrows(IllegalArgumentException.class,
                () -> vr.plan(Problem.of(p.data(), Losses.hinge(), p.domain()).shape(), b));
        assertThrows(IllegalArgumentException.class, () -> vr.plan(Problem.of(p.data(),
                org.dpopt.oracle.GllBisectionProx.of(Losses.hinge(), 4, 0.01), p.domain()).shape(), b));
        // Poisson batches are accounted under add/remove-one: a replace-one accountant is refused
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder()
                .accountant(new RdpAccountant(RdpAccountant.DEFAULT_ORDERS, RdpAccountant.Conversion.IMPROVED,
                        NeighboringRelation.REPLACE_ONE)).build().plan(p.shape(), b));
        // a set that is not a polytope of the problem's dimension
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder()
                .domain(Polytopes.vertices(new double[][] {{1, 0}, {0, 1}})).build().plan(p.shape(), b));
        assertThrows(IllegalArgumentException.class,
                () -> vr.plan(Problem.of(p.data(), Losses.logistic(), new org.dpopt.geometry.LpBall(2, 1)).shape(), b));
        // a rule without a positive clip or drift, or with a floor outside [0, 1]
        assertThrows(IllegalArgumentException.class, () -> new VarianceReducedBatches.Rule(0, 1, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new VarianceReducedBatches.Rule(1, 0, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new VarianceReducedBatches.Rule(1, Double.NaN, 0.5));
        assertThrows(IllegalArgumentException.class, () -> new VarianceReducedBatches.Rule(1, 1, 1.5));
        assertThrows(IllegalArgumentException.class, () -> new VarianceReducedBatches.Rule(1, 1, Double.NaN));
        // the paper preset is the one-pass schedule (replace-one)
        VarianceReducedFrankWolfe paper = VarianceReducedFrankWolfe.builder().preset(Preset.PAPER).build();
        assertEquals(NeighboringRelation.REPLACE_ONE, paper.relation());
        assertFalse(VarianceReducedFrankWolfe.onBatches(paper.plan(p.shape(), b)));
    }
}
