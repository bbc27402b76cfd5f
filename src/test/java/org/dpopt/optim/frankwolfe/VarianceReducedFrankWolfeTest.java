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
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.geometry.Polytope;
import org.dpopt.geometry.Polytopes;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.PrivateOptimizerContract;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.Mutation;
import org.dpopt.optim.core.PrivateRun;
import org.dpopt.optim.core.RunOptions;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class VarianceReducedFrankWolfeTest {

    /** The practical default (Poisson batches with the recursive estimator). */
    @Nested
    class Contract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return VarianceReducedFrankWolfe.builder().build();
        }

        @Override
        protected Problem problem() {
            return sparse(2000, 10, 30);
        }
    }

    /** The paper preset (one pass, report-noisy-max). */
    @Nested
    class PaperContract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return VarianceReducedFrankWolfe.builder().preset(Preset.PAPER).build();
        }

        @Override
        protected Problem problem() {
            return sparse(2000, 10, 30);
        }
    }

    private static VarianceReducedFrankWolfe.Schedule schedule(RunPlan plan) {
        return plan.detail(VarianceReducedFrankWolfe.Schedule.class);
    }

    @Test
    void planEqualizesSensitivitiesAndStatesParallelRounds() {
        Problem p = sparse(5000, 30, 1);
        PrivacyBudget budget = PrivacyBudget.of(2.0, 1e-6);
        VarianceReducedFrankWolfe vr = VarianceReducedFrankWolfe.builder().preset(Preset.PAPER).build();
        RunPlan plan = vr.plan(p.shape(), budget);
        OnePassSchedule s = schedule(plan).schedule();
        // R = ⌈(nε)^{1/3}⌉ = ⌈10000^{1/3}⌉ = 22, μ = 1/R; m = ⌈L/(βμD₂)⌉ with L = 1, β = 1/4, D₂ = 20
        assertEquals(22, s.rounds());
        assertEquals((int) Math.ceil(1 / (0.25 * s.mu() * 20)), s.steps());
        // difference-batch sensitivity 2βμD₂·max‖v‖₂/b must not exceed the anchor's 2L·max‖v‖₂/b₀
        double anchorSens = 2 * 1.0 * 10 / s.anchor();
        double diffSens = 2 * 0.25 * s.mu() * 20 * 10 / s.batch();
        assertEquals(anchorSens, schedule(plan).rnm().sensitivity(), 1e-15);
        assertTrue(diffSens <= anchorSens * (1 + 1e-12));
        assertTrue(s.records() <= 5000);
        // b₀ is the largest anchor that fits: one more would overflow n
        long next = (long) s.rounds() * (s.anchor() + 1 + (long) (s.steps() - 1)
                * (long) Math.ceil((s.anchor() + 1) * 0.25 * s.mu() * 20));
        assertTrue(next > 5000);
        // the statement: R disjoint rounds, each m pure-DP selections at the calibrated ε0
        double eps0 = plan.parameters().real(Param.EPSILON_PER_STEP);
        List<org.dpopt.accounting.DpEvent> rounds = new ArrayList<>();
        for (int r = 0; r < s.rounds(); r++) {
            rounds.add(new SelfComposedEvent(new EpsilonDeltaEvent(eps0, 0), s.steps()));
        }
        assertEquals(DpEvents.normalize(new ParallelComposedEvent(rounds)), plan.statement());
        assertEquals(2 * anchorSens / eps0, plan.parameters().real(Param.LAPLACE_SCALE), 1e-12);
        assertEquals(s.records(), plan.parameters().real(Param.RECORDS_USED), 0);
        OptimizationResult r = vr.run(p, plan, Rngs.seeded(2));
        assertEquals(plan.statement(), r.ledger());
        assertTrue(r.privacy().epsilon() <= 2.0 * (1 + 1e-9));
        assertTrue(p.domain().contains(r.solution(), 1e-9));
    }

    @Test
    void passesComposeOneRoundPassesAndParallelRoundsNeedAnAccountantThatNestsThem() {
        Problem p = sparse(3000, 20, 4);
        PrivacyBudget budget = PrivacyBudget.of(1.0, 1e-6);
        VarianceReducedFrankWolfe vr = VarianceReducedFrankWolfe.builder().rounds(1).stepSize(0.25).passes(3).build();
        RunPlan plan = vr.plan(p.shape(), budget);
        OnePassSchedule s = schedule(plan).schedule();
        assertEquals(3, s.passes());
        double eps0 = plan.parameters().real(Param.EPSILON_PER_STEP);
        // one round per pass: the statement is 3m pure selections (no parallel composition of one part)
        assertEquals(new SelfComposedEvent(new EpsilonDeltaEvent(eps0, 0), 3L * s.steps()), plan.statement());
        assertEquals(3, plan.parameters().real(Param.EPOCHS), 0);
        // eps0 is the largest the accountant certifies for the 3m selections: 1% more exceeds the budget
        double over = new org.dpopt.accounting.AdvancedCompositionAccountant(
                org.dpopt.accounting.NeighboringRelation.REPLACE_ONE).epsilon(
                new SelfComposedEvent(new EpsilonDeltaEvent(eps0 * 1.01, 0), 3L * s.steps()), 1e-6);
        assertTrue(over > 1.0, "eps at 1.01 eps0 = " + over);
        int[] visits = new int[3000];
        UniformRandomProvider pick = Rngs.seeded(5);
        VarianceReducedFrankWolfe.iterate(PrivateRun.start(plan, p, Rngs.seeded(7), RunOptions.DEFAULT),
                schedule(plan), (sc, c) -> pick.nextInt(c), i -> visits[i]++);
        long used = 0;
        for (int v : visits) {
            assertTrue(v == 0 || v == 3, "a record is read once per pass or never, but " + v);
            used += v;
        }
        assertEquals(3 * s.records(), used);
        OptimizationResult r = vr.run(p, plan, Rngs.seeded(2));
        assertEquals(plan.statement(), r.ledger());
        assertTrue(r.privacy().epsilon() <= 1.0 * (1 + 1e-9));
        // several passes of several rounds: advanced composition does not nest a parallel composition, so
        // the plan is refused rather than certified by a bound the accountant does not have
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder().rounds(3).passes(2)
                .build().plan(p.shape(), budget));
    }

    @Test
    void theDefaultScheduleFitsEverySmallDatasetItIsPlannedFor() {
        // the automatic R and m are clamped to what n records hold (heart_scale's n = 216 at eps = 5 once
        // asked for R = 11 rounds of m = 20 steps, 220 records); the paper preset and the practical one with
        // a given schedule (one pass) alike
        for (int n : new int[] {2, 3, 7, 30, 100, 215, 216, 300, 455}) {
            Problem p = sparse(n, 14, 3);
            for (double eps : new double[] {0.5, 1, 2, 5, 10, 50}) {
                for (Preset preset : Preset.values()) {
                    PrivacyBudget budget = PrivacyBudget.of(eps, 1e-5);
                    RunPlan vr = VarianceReducedFrankWolfe.builder().preset(preset).passes(1).build()
                            .plan(p.shape(), budget);
                    OnePassSchedule s = schedule(vr).schedule();
                    assertTrue(s.records() <= n, () -> "n = " + n + ": " + s.records() + " records planned");
                    assertTrue(s.anchor() >= 1);
                    // noisy-sfw's one-pass schedule (its practical default samples Poisson batches instead)
                    RunPlan sfw = NoisyStochasticFrankWolfe.builder().preset(preset).passes(1).build()
                            .plan(p.shape().withDomain(new org.dpopt.geometry.LpBall(1.5, 5.0)), budget);
                    assertTrue(sfw.parameters().real(Param.RECORDS_USED) <= n);
                }
            }
        }
    }

    @Test
    void automaticStepsPerRoundShrinkToFitSmallData() {
        // at n = 216, eps = 5 the automatic R = 11 and m = 20 need 220 records; m is lowered to fit
        Problem base = sparse(400, 14, 3);
        for (int n = 100; n <= 400; n += 3) {
            for (double eps : new double[] {1, 2, 5, 10}) {
                Problem p = Problem.of(base.data().subset(java.util.stream.IntStream.range(0, n).toArray()), Losses.logistic(),
                        Polytopes.l1Ball(1.0));
                RunPlan plan = VarianceReducedFrankWolfe.builder().preset(Preset.PAPER).build()
                        .plan(p.shape(), PrivacyBudget.of(eps, 1e-5));
                OnePassSchedule s = schedule(plan).schedule();
                assertTrue(s.records() <= n, n + " " + eps + ": " + s.records());
                assertTrue(plan.statement() != null);
            }
        }
        assertEquals(1 + (216 / 11 - 1) / 1, OnePassSchedule.fittingSteps(216, 11, 0.5));
        assertEquals(1, OnePassSchedule.fittingSteps(5, 11, 0.5));
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder().stepsPerRound(40)
                .build().plan(sparse(216, 14, 3).shape(), PrivacyBudget.of(5, 1e-5)));
    }

    @Test
    void usesEveryRecordAtMostOnce() {
        Problem p = sparse(3000, 20, 3);
        RunPlan plan = VarianceReducedFrankWolfe.builder().preset(Preset.PAPER).build()
                .plan(p.shape(), PrivacyBudget.of(1.0, 1e-6));
        int[] visits = new int[3000];
        UniformRandomProvider sel = Rngs.seeded(5);
        VarianceReducedFrankWolfe.iterate(PrivateRun.start(plan, p, Rngs.seeded(4), RunOptions.DEFAULT),
                schedule(plan), (s, c) -> sel.nextInt(c), i -> visits[i]++);
        long used = 0;
        for (int v : visits) {
            assertTrue(v <= 1, "a record was read twice");
            used += v;
        }
        assertEquals(schedule(plan).schedule().records(), used);
        assertTrue(used > 0.9 * 3000, "the schedule should use most of the data: " + used);
    }

    @Test
    void declaredSensitivityHoldsOnAdversarialNeighbours() {
        // Replace one record — placed in an anchor batch or in a difference batch — by an adversarial row
        // (±e_k with label ±100 under the clamped squared loss, or a random unit row), run both datasets
        // with the same read order and the same forced vertex choices, and compare the exact scores
        // ⟨v, d_t⟩ call by call: every change must be ≤ Δ, and the anchor case must attain ≥ 0.99 Δ.
        AdversarialNeighbours adv = new AdversarialNeighbours(600, 5, Rngs.seeded(8));
        GeneralizedLinearLoss loss = Losses.squared(1, 1);
        Polytope ball = Polytopes.l1Ball(2.0);
        Problem base = Problem.of(adv.base(), loss, ball);
        RunPlan plan = VarianceReducedFrankWolfe.builder().rounds(3).stepSize(0.3).build()
                .plan(base.shape(), PrivacyBudget.of(1.0, 1e-6));
        VarianceReducedFrankWolfe.Schedule s = schedule(plan);
        OnePassSchedule os = s.schedule();
        List<Integer> order = new ArrayList<>();
        UniformRandomProvider s0 = Rngs.seeded(1);
        VarianceReducedFrankWolfe.iterate(PrivateRun.start(plan, base, Rngs.seeded(77), RunOptions.DEFAULT), s,
                (sc, c) -> s0.nextInt(c), order::add);
        int[] positions = {0, os.anchor() - 1, os.anchor(), os.anchor() + os.batch(),
            os.anchor() + (os.steps() - 2) * os.batch(), order.size() - 1};
        List<Integer> victims = new ArrayList<>();
        for (int pos : positions) {
            victims.add(order.get(pos));
        }
        AdversarialNeighbours.Probe probe = (data, seed) -> {
            List<double[]> seen = new ArrayList<>();
            UniformRandomProvider choice = Rngs.seeded(seed);
            PrivateRun run = PrivateRun.start(plan, Problem.of(data, loss, ball), Rngs.seeded(77), RunOptions.DEFAULT);
            VarianceReducedFrankWolfe.iterate(run, s, (sc, c) -> {
                seen.add(sc.clone());
                return choice.nextInt(c);
            }, null);
            return seen;
        };
        double[] worst = adv.worstChange(victims, 2, 4, VarianceReducedFrankWolfeTest::randomUnitVictim, probe,
                AdversarialNeighbours::maxAbs, 100);
        double declared = s.rnm().sensitivity();
        assertTrue(worst[0] <= declared * (1 + 1e-9), "anchor " + worst[0] + " > " + declared);
        assertTrue(worst[1] <= declared * (1 + 1e-9), "difference " + worst[1] + " > " + declared);
        assertTrue(worst[0] >= 0.99 * declared, "anchor bound not attained: " + worst[0] + " vs " + declared);
        assertTrue(worst[1] > 0, "difference-batch records must influence later scores");
    }

    /** Random unit rows with labels uniform in [−2, 2]. */
    private static void randomUnitVictim(double[] a, double[] b, double[] ya, double[] yb, int victim,
            UniformRandomProvider gen) {
        unitRow(a, gen);
        unitRow(b, gen);
        ya[victim] = gen.nextDouble() * 4 - 2;
        yb[victim] = gen.nextDouble() * 4 - 2;
    }

    private static void unitRow(double[] row, UniformRandomProvider rng) {
        double s = 0;
        for (int k = 0; k < row.length; k++) {
            row[k] = rng.nextDouble() - 0.5;
            s += row[k] * row[k];
        }
        for (int k = 0; k < row.length; k++) {
            row[k] /= Math.sqrt(s) * (1 + 1e-12);
        }
    }

    @Test
    void reducesTheFrankWolfeGapWithAGenerousBudget() {
        // ε = 200: the noise is small; the random iterate's mean empirical FW gap must be well below the gap at
        // the starting vertex (a non-convex-style stationarity guarantee).
        Problem p = sparse(20000, 20, 6);
        Polytope set = (Polytope) p.domain();
        DMatrixRMaj w0 = new DMatrixRMaj(20, 1);
        set.vertex(0, w0);
        double gap0 = FrankWolfeSupport.frankWolfeGap(p, set, w0);
        // expected gap of the random output iterate: mean of 5 seeded runs
        double gap = 0;
        for (int seed = 7; seed < 12; seed++) {
            OptimizationResult r = VarianceReducedFrankWolfe.builder().preset(Preset.PAPER).diagnostics(true).build()
                    .optimize(p, PrivacyBudget.of(200, 1e-6), Rngs.seeded(seed));
            assertEquals(FrankWolfeSupport.frankWolfeGap(p, set, r.solution()),
                    r.nonPrivateDiagnostics().get(Diagnostic.FRANK_WOLFE_GAP), 0);
            gap += r.nonPrivateDiagnostics().get(Diagnostic.FRANK_WOLFE_GAP) / 5;
        }
        assertTrue(gap < 0.25 * gap0, "gap " + gap + " vs start " + gap0);
    }

    @Test
    void diagnosticsDoNotChangeTheReleaseAndTheOutputIndexIsOneOfThem() {
        Problem p = sparse(2000, 10, 12);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        // the paper preset releases the iterate at a uniformly random step, whose index is a diagnostic
        OptimizationResult off = VarianceReducedFrankWolfe.builder().preset(Preset.PAPER).build()
                .optimize(p, b, Rngs.seeded(3));
        OptimizationResult on = VarianceReducedFrankWolfe.builder().preset(Preset.PAPER).diagnostics(true).build()
                .optimize(p, b, Rngs.seeded(3));
        assertArrayEquals(off.solution().data, on.solution().data, 0);
        assertEquals(off.parameters(), on.parameters());
        assertFalse(on.parameters().asMap().containsKey("output_index"), "the output index is not a parameter");
        double index = on.nonPrivateDiagnostics().get(Diagnostic.OUTPUT_INDEX);
        assertTrue(index >= 0 && index < on.steps() && index == Math.rint(index), "output index " + index);
        assertEquals(schedule(on.plan()).schedule().gradientEvaluations(),
                on.nonPrivateDiagnostics().get(Diagnostic.GRADIENT_EVALUATIONS), 0);
        assertEquals(p.empiricalRisk(on.solution()), on.nonPrivateDiagnostics().get(Diagnostic.TRAIN_LOSS), 0);
    }

    @Test
    void thePracticalPresetReleasesTheLastIterateAndNoOutputIndex() {
        Problem p = sparse(2000, 10, 12);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        // on Poisson batches (the default) and in one pass (a given schedule)
        for (VarianceReducedFrankWolfe vr : new VarianceReducedFrankWolfe[] {
            VarianceReducedFrankWolfe.builder().diagnostics(true).build(),
            VarianceReducedFrankWolfe.builder().passes(1).diagnostics(true).build()}) {
            OptimizationResult r = vr.optimize(p, b, Rngs.seeded(3));
            assertEquals("last", r.parameters().get(Param.OUTPUT));
            assertEquals("practical", r.parameters().get(Param.PRESET));
            assertFalse(r.nonPrivateDiagnostics().asMap().containsKey(Diagnostic.OUTPUT_INDEX.key()));
        }
    }

    @Test
    void everySelectionGoesThroughTheRunCore() {
        // The rnm-half-scale and half-noise mutants draw the selections at half the Laplace scale while the
        // ledger records the honest event: with the same seed the path must change, and the report says so.
        Problem p = sparse(2000, 10, 13);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        OptimizationResult honest = VarianceReducedFrankWolfe.builder().preset(Preset.PAPER).build()
                .optimize(p, b, Rngs.seeded(4));
        for (Mutation m : new Mutation[] {Mutation.RNM_HALF_SCALE, Mutation.HALF_NOISE}) {
            OptimizationResult mutant = VarianceReducedFrankWolfe.builder().preset(Preset.PAPER).mutation(m).build()
                    .optimize(p, b, Rngs.seeded(4));
            assertEquals(honest.ledger(), mutant.ledger());
            assertFalse(java.util.Arrays.equals(honest.solution().data, mutant.solution().data), m.cliName());
            assertTrue(mutant.privacy().toString().contains("MUTANT " + m.cliName()), mutant.privacy().toString());
        }
    }

    @Test
    void refusesUnsupportedConfigurations() {
        Problem p = sparse(200, 10, 9);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder().rounds(500).build()
                .plan(p.shape(), b));
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder().build()
                .plan(Problem.of(p.data(), Losses.hinge(), p.domain()).shape(), b));
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder().build().plan(
                Problem.of(p.data(), org.dpopt.oracle.GllBisectionProx.of(Losses.hinge(), 4, 0.01), p.domain())
                        .shape(), b));
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder()
                .domain(Polytopes.vertices(new double[][] {{1, 0}, {0, 1}})).build().plan(p.shape(), b));
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder().preset(Preset.PAPER)
                .build().plan(Problem.of(p.data(), Losses.logistic()).shape(), b));
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder().stepSize(1.5));
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder().stepSize(0));
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder().rounds(0));
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder().stepsPerRound(0));
        assertThrows(IllegalArgumentException.class, () -> VarianceReducedFrankWolfe.builder().shuffleBlock(0));
        // the schedule addresses records by position: the declared size must be the number of rows
        VarianceReducedFrankWolfe paper = VarianceReducedFrankWolfe.builder().preset(Preset.PAPER).build();
        RunPlan plan = paper.plan(p.withDeclaredSize(300).shape(), b);
        assertThrows(IllegalArgumentException.class, () -> paper.run(p.withDeclaredSize(300), plan, Rngs.seeded(1)));
    }
}
