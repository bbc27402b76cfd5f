package org.dpopt.optim.smoothing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.BasicCompositionAccountant;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.GaussianMechanism;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.Diagnostics;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.PrivateOptimizerContract;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.core.Mutation;
import org.junit.jupiter.api.Nested;
import org.dpopt.oracle.GllBisectionProx;
import org.dpopt.sampling.RecordOrder;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/** Phased-SGD schedules vs the formulas of its javadoc and theory-notes/phased-sgd.md; ledger; refusals; contract. */
class PhasedSgdTest {

    @Nested
    class ExactContract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return PhasedSgd.defaults();
        }

        @Override
        protected Problem problem() {
            return Problem.of(data(600, 5, 21), Losses.logistic(), ConvexSets.l2Ball(1));
        }
    }

    @Nested
    class BisectionUnconstrainedContract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return PhasedSgd.builder().order(RecordOrder.SHUFFLE).build();
        }

        @Override
        protected Problem problem() {
            return Problem.of(data(600, 5, 22), Losses.hinge());
        }
    }

    static PhasedSchedule schedule(PhasedSgd opt, Problem p, PrivacyBudget b) {
        return opt.plan(p.shape(), b).detail(PhasedSchedule.class);
    }

    private static Dataset data(int n, int d, long seed) {
        UniformRandomProvider rng = Rngs.seeded(seed);
        return Synthetic.linearlySeparable(n, Synthetic.plantedVector(d, 1, rng), 0.1, rng).data();
    }

    @Test
    void phaseCountAndSizes() {
        assertEquals(1, PhasedSgd.phaseCount(2));
        assertEquals(2, PhasedSgd.phaseCount(3));
        assertEquals(10, PhasedSgd.phaseCount(1024));
        assertEquals(11, PhasedSgd.phaseCount(1025));
        assertEquals(20, PhasedSgd.phaseCount(1_000_000));
        Problem p = Problem.of(data(1024, 100, 1), Losses.logistic(), ConvexSets.l2Ball(0.5));
        PhasedSchedule plan = schedule(paper(), p, PrivacyBudget.of(1, 1e-8));
        // paper preset, n = 1024 ⇒ k = 10, n_i = 512, 256, …, 1 (Σ = 1023)
        assertArrayEquals(new int[] {512, 256, 128, 64, 32, 16, 8, 4, 2, 1}, plan.sizes());
        // n not a power of two: the last phase still gets one record and Σ n_i ≤ n
        for (int n : new int[] {3, 5, 1000, 4097, 12345}) {
            PhasedSchedule q = schedule(paper(), Problem.of(data(n, 3, 2), Losses.logistic(),
                    ConvexSets.l2Ball(1)), PrivacyBudget.of(1, 1e-6));
            int sum = 0;
            for (int s : q.sizes()) {
                assertTrue(s >= 1);
                sum += s;
            }
            assertTrue(sum <= n, "n=" + n + " sum=" + sum);
            assertEquals(PhasedSgd.phaseCount(n), q.sizes().length);
        }
    }

    private static PhasedSgd paper() {
        return PhasedSgd.builder().preset(Preset.PAPER).build();
    }

    @Test
    void practicalPresetHasAtMostTwoPhasesCoveringEveryRecord() {
        assertArrayEquals(new int[] {2}, PhasedSgd.phaseSizes(Preset.PRACTICAL, 2));
        assertArrayEquals(new int[] {1, 2}, PhasedSgd.phaseSizes(Preset.PRACTICAL, 3));
        assertArrayEquals(new int[] {227, 228}, PhasedSgd.phaseSizes(Preset.PRACTICAL, 455));
        assertArrayEquals(new int[] {512, 512}, PhasedSgd.phaseSizes(Preset.PRACTICAL, 1024));
        assertArrayEquals(new int[] {512, 256, 128, 64, 32, 16, 8, 4, 2, 1}, PhasedSgd.phaseSizes(Preset.PAPER, 1024));
        assertThrows(IllegalArgumentException.class, () -> PhasedSgd.phaseSizes(Preset.PRACTICAL, 1));
        assertThrows(IllegalArgumentException.class, () -> PhasedSgd.builder().preset(null));
        // the plan: the theorem's step and decay, two phases, the last iterate of each phase released
        Problem p = Problem.of(data(1024, 100, 1), Losses.logistic(), ConvexSets.l2Ball(0.5));
        PhasedSchedule plan = schedule(PhasedSgd.defaults(), p, PrivacyBudget.of(1, 1e-8));
        PhasedSchedule paperPlan = schedule(paper(), p, PrivacyBudget.of(1, 1e-8));
        assertEquals(2, plan.phases());
        assertTrue(plan.lastIterate());
        assertFalse(paperPlan.lastIterate());
        assertEquals(paperPlan.eta(), plan.eta(), 0.0);
        assertEquals(paperPlan.noiseMultiplier(), plan.noiseMultiplier(), 0.0);
        for (int i = 0; i < 2; i++) {
            assertEquals(paperPlan.step(i), plan.step(i), 0.0);
            assertEquals(paperPlan.sensitivity(i), plan.sensitivity(i), 0.0);
        }
        RunParameters params = PhasedSgd.defaults().plan(p.shape(), PrivacyBudget.of(1, 1e-8)).parameters();
        assertEquals("practical", params.get(Param.PRESET));
        assertEquals("last-phase-last-iterate", params.get(Param.OUTPUT));
        assertEquals("calibrated", params.get(Param.NOISE_RULE));
        assertEquals("paper", paper().plan(p.shape(), PrivacyBudget.of(1, 1e-8)).parameters().get(Param.PRESET));
    }

    @Test
    void practicalPresetReleasesTheLastIterateOfEachPhase() {
        // n = 4 in the given order: both presets run phase 1 on rows 0, 1 at step η_1 and draw the same noise,
        // so the first releases differ by u_2 − (u_1 + u_2)/2 = (u_2 − u_1)/2 (practical: u_2; paper: the average)
        Problem p = Problem.of(data(4, 3, 5), Losses.logistic());
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        DMatrixRMaj practical = firstRelease(PhasedSgd.builder().order(RecordOrder.GIVEN), p, b);
        DMatrixRMaj average = firstRelease(PhasedSgd.builder().order(RecordOrder.GIVEN).preset(Preset.PAPER), p, b);
        double eta1 = schedule(PhasedSgd.builder().order(RecordOrder.GIVEN).build(), p, b).step(0);
        DMatrixRMaj g = new DMatrixRMaj(3, 1);
        DMatrixRMaj u1 = new DMatrixRMaj(3, 1);
        p.loss().gradient(u1, p.data(), 0, g);
        Vectors.axpy(-eta1, g, u1);
        p.loss().gradient(u1, p.data(), 1, g);
        for (int j = 0; j < 3; j++) {
            // (u_2 − u_1)/2 = −η_1 ∇f(u_1; z_1)/2
            assertEquals(-eta1 * g.data[j] / 2, practical.data[j] - average.data[j], 1e-12);
        }
        assertTrue(Math.abs(g.data[0]) > 1e-6, "the check is not vacuous");
    }

    private static DMatrixRMaj firstRelease(PhasedSgd.Builder builder, Problem p, PrivacyBudget b) {
        DMatrixRMaj[] first = new DMatrixRMaj[1];
        builder.observer(new org.dpopt.optim.core.ReleaseObserver() {
            @Override
            public void gaussian(DMatrixRMaj value, double sensitivity, DpEvent event) {
                if (first[0] == null) {
                    first[0] = value.copy();
                }
            }
        }).build().optimize(p, b, Rngs.seeded(3));
        return first[0];
    }

    /** L = D = 1, d = 100, ε = 1, δ = 1e−8, n = 1024: η = min(4/√n, ε/√(d ln(1/δ))) = 0.0232995, paper σ_1 = 0.1. */
    @Test
    void stepAndPaperNoiseMatchSpecNumbers() {
        Problem p = Problem.of(data(1024, 100, 1), Losses.logistic(), ConvexSets.l2Ball(0.5));
        assertEquals(1.0, p.lipschitz());
        PhasedSchedule plan = schedule(PhasedSgd.builder().preset(Preset.PAPER).noise(PhasedSgd.Noise.PAPER).build(), p,
                PrivacyBudget.of(1, 1e-8));
        assertEquals(0.0232995, plan.eta(), 1e-7);
        assertEquals(1.0, plan.diameter());
        assertTrue(plan.prox() == null, "logistic is smooth enough: exact gradients");
        for (int i = 0; i < 10; i++) {
            assertEquals(plan.eta() / Math.pow(4, i + 1), plan.step(i), 1e-18);
            assertEquals(2 * plan.step(i), plan.sensitivity(i), 1e-18);
            assertEquals(4 * plan.step(i) * Math.sqrt(Math.log(1e8)), plan.sigma(i), 1e-15);
        }
        assertEquals(0.1, plan.sigma(0), 1e-12);
    }

    @Test
    void calibratedNoiseUsesExactGaussianCurve() {
        Problem p = Problem.of(data(1024, 100, 1), Losses.logistic(), ConvexSets.l2Ball(0.5));
        for (double eps : new double[] {0.5, 1, 8}) {
            PhasedSchedule plan = schedule(PhasedSgd.defaults(), p, PrivacyBudget.of(eps, 1e-8));
            double z = GaussianMechanism.noiseMultiplier(eps, 1e-8);
            assertEquals(z, plan.noiseMultiplier(), 2e-4 * z);
            assertTrue(GaussianMechanism.epsilon(1e-8, plan.noiseMultiplier()) <= eps * (1 + 1e-9));
            for (int i = 0; i < plan.phases(); i++) {
                assertEquals(plan.noiseMultiplier() * 2 * plan.step(i), plan.sigma(i), 1e-15);
            }
            // exact calibration is never noisier than the paper constant where the latter is valid (ε ≤ 1 here)
            if (eps <= 1) {
                assertTrue(plan.noiseMultiplier() < 2 * Math.sqrt(Math.log(1e8)) / eps);
            }
        }
    }

    /** Bisection: β_W = (L/D)·min(√n, εn/√(d ln(1/δ))), α = L0/n, Δ_i = 2η_i(L + e·n_i), e = L0/2^K. */
    @Test
    void bisectionScheduleAndSoundSensitivity() {
        int n = 1024;
        int d = 10;
        Problem p = Problem.of(data(n, d, 1), Losses.hinge(), ConvexSets.l2Ball(1));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        PhasedSchedule plan = schedule(PhasedSgd.defaults(), p, b);
        GllBisectionProx prox = plan.prox();
        assertTrue(prox != null);
        double li = Math.log(1e6);
        double betaW = 0.5 * Math.min(Math.sqrt(n), n / Math.sqrt(d * li));
        assertEquals(betaW, prox.beta(), 1e-12 * betaW);
        assertEquals(betaW, plan.smoothness(), 1e-12 * betaW);
        assertTrue(plan.smoothness() <= 8 / plan.eta());
        assertEquals(11, prox.halvings()); // ⌈log2(2n)⌉
        double e = 1.0 / 2048;
        assertEquals(e, plan.gradientError(), 1e-18);
        for (int i = 0; i < plan.phases(); i++) {
            double delta = 2 * plan.step(i) * (1 + e * plan.sizes()[i]);
            assertEquals(delta, plan.sensitivity(i), 1e-15);
            assertTrue(plan.sensitivity(i) <= 3 * plan.step(i), "Δ_i ≤ 3Lη_i for α = L0/n");
        }
    }

    @Test
    void ledgerEqualsStatementExactAndBisection() {
        Dataset data = data(3000, 8, 5);
        PrivacyBudget b = PrivacyBudget.of(2, 1e-6);
        for (Loss loss : new Loss[] {Losses.logistic(), Losses.hinge(), Losses.absolute()}) {
            for (boolean constrained : new boolean[] {true, false}) {
                Problem p = constrained ? Problem.of(data, loss, ConvexSets.l2Ball(2)) : Problem.of(data, loss);
                PhasedSgd opt = PhasedSgd.builder().diagnostics(true).build();
                PhasedSchedule s = schedule(opt, p, b);
                DpEvent statement = opt.privacyEvent(p, b);
                OptimizationResult r = opt.optimize(p, b, Rngs.seeded(9));
                assertEquals(DpEvents.normalize(statement), r.ledger());
                assertEquals(NeighboringRelation.REPLACE_ONE, r.privacy().relation());
                assertTrue(r.privacy().epsilon() <= 2 * (1 + 1e-9));
                assertTrue(r.privacy().epsilon() >= 2 * 0.99, "calibrated, not wasteful");
                int k = PhasedSgd.phaseSizes(Preset.PRACTICAL, 3000).length;
                RunParameters params = r.parameters();
                assertEquals(k, params.real(Param.PHASES));
                assertEquals(new ParallelComposedEvent(Collections.nCopies(k,
                        (DpEvent) new GaussianEvent(params.real(Param.NOISE_MULTIPLIER)))), statement);
                assertEquals(s.step(0), params.real(Param.LEARNING_RATE), 0.0);
                assertEquals(s.totalSteps(), params.real(Param.STEPS));
                Diagnostics diag = r.nonPrivateDiagnostics();
                assertEquals(s.totalSteps(), diag.get(Diagnostic.GRADIENT_EVALUATIONS));
                assertTrue(diag.get(Diagnostic.GRADIENT_EVALUATIONS) <= 3000);
                assertEquals(p.empiricalRisk(r.solution()), diag.get(Diagnostic.TRAIN_LOSS), 0.0);
                if ("logistic".equals(loss.name())) {
                    assertFalse(diag.has(Diagnostic.SCALAR_SUBGRADIENT_CALLS));
                    assertFalse(params.has(Param.INNER_STEPS));
                } else {
                    double calls = diag.get(Diagnostic.SCALAR_SUBGRADIENT_CALLS);
                    assertTrue(calls <= (double) s.prox().maxSubgradientCalls() * s.totalSteps());
                    assertTrue(calls >= 2 * diag.get(Diagnostic.GRADIENT_EVALUATIONS));
                    assertEquals(s.prox().halvings(), params.real(Param.INNER_STEPS));
                    assertEquals(s.gradientError(), params.real(Param.GRADIENT_ERROR), 0.0);
                }
                if (constrained) {
                    // the last phase's average is in W; only its noise (σ_k tiny) can leave it
                    assertTrue(Vectors.norm2(r.solution()) <= 2 + 10 * s.sigma(k - 1) * Math.sqrt(8));
                }
            }
        }
    }

    @Test
    void rdpAccountantUnderReplaceOneIsAccepted() {
        Problem p = Problem.of(data(2000, 5, 3), Losses.hinge(), ConvexSets.l2Ball(1));
        RdpAccountant rdp = new RdpAccountant(RdpAccountant.DEFAULT_ORDERS, RdpAccountant.Conversion.IMPROVED,
                NeighboringRelation.REPLACE_ONE);
        PhasedSgd opt = PhasedSgd.builder().accountant(rdp).build();
        OptimizationResult r = opt.optimize(p, PrivacyBudget.of(1, 1e-6), Rngs.seeded(1));
        assertEquals("rdp", r.privacy().accountant());
        assertEquals("rdp", r.parameters().get(Param.ACCOUNTANT));
        assertTrue(r.privacy().epsilon() <= 1 + 1e-9);
        assertEquals(DpEvents.normalize(opt.privacyEvent(p, PrivacyBudget.of(1, 1e-6))), r.ledger());
        // RDP is looser than the exact curve for a single Gaussian: more noise
        double zBasic = schedule(PhasedSgd.defaults(), p, PrivacyBudget.of(1, 1e-6)).noiseMultiplier();
        assertTrue(r.parameters().real(Param.NOISE_MULTIPLIER) > zBasic);
    }

    @Test
    void sameSeedSameResultAndNoiseIsActuallyAdded() {
        Problem p = Problem.of(data(2000, 5, 3), Losses.hinge(), ConvexSets.l2Ball(1));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        DMatrixRMaj a = PhasedSgd.defaults().optimize(p, b, Rngs.seeded(4)).solution();
        DMatrixRMaj c = PhasedSgd.defaults().optimize(p, b, Rngs.seeded(4)).solution();
        DMatrixRMaj e = PhasedSgd.defaults().optimize(p, b, Rngs.seeded(5)).solution();
        assertArrayEquals(a.data, c.data);
        assertFalse(java.util.Arrays.equals(a.data, e.data));
        // a plan is made once and run many times; a run equals a fresh optimize with the same seed
        RunPlan plan = PhasedSgd.defaults().plan(p.shape(), b);
        assertArrayEquals(a.data, PhasedSgd.defaults().run(p, plan, Rngs.seeded(4)).solution().data);
    }

    /**
     * Audit mutations: half noise moves the output; without clipping at L the output is unchanged,
     * because every library loss already has per-example gradients of norm at most L (so the clip at L
     * is a guard, and an audit cannot catch its removal on valid data).
     */
    @Test
    void mutations() {
        Problem p = Problem.of(data(1000, 5, 3), Losses.hinge(), ConvexSets.l2Ball(1));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        OptimizationResult honest = PhasedSgd.defaults().optimize(p, b, Rngs.seeded(4));
        OptimizationResult half = PhasedSgd.builder().mutation(Mutation.HALF_NOISE).build().optimize(p, b,
                Rngs.seeded(4));
        OptimizationResult noClip = PhasedSgd.builder().mutation(Mutation.NO_CLIPPING).build().optimize(p, b,
                Rngs.seeded(4));
        assertFalse(java.util.Arrays.equals(honest.solution().data, half.solution().data));
        assertEquals(honest.ledger(), half.ledger(), "the mutant records the full noise");
        assertTrue(half.privacy().toString().contains("MUTANT half-noise"), half.privacy().toString());
        assertArrayEquals(honest.solution().data, noClip.solution().data);
    }

    @Test
    void refusesConfigurationsThatVoidTheTheorem() {
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        Dataset data = data(500, 5, 1);
        // n < 2
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> schedule(PhasedSgd.defaults(), Problem.of(data.subset(new int[] {0}), Losses.logistic(), ConvexSets.l2Ball(1)), b));
        assertTrue(e.getMessage().startsWith("dataset size n must be at least 2"), e.getMessage());
        // exact oracle on a non-smooth loss
        e = assertThrows(IllegalArgumentException.class, () -> schedule(PhasedSgd.builder().oracle(PhasedSgd.OracleChoice.EXACT)
                .build(), Problem.of(data, Losses.hinge(), ConvexSets.l2Ball(1)), b));
        assertTrue(e.getMessage().startsWith("smoothness beta of hinge must be at most 8/eta"), e.getMessage());
        // exact oracle with a step so large that η_1 > 2/β (logistic β = 1/4 > 8/η for η = 100)
        e = assertThrows(IllegalArgumentException.class, () -> schedule(PhasedSgd.builder().oracle(PhasedSgd.OracleChoice.EXACT)
                .baseStepSize(100).build(), Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(1)), b));
        assertTrue(e.getMessage().contains("step-size condition"), e.getMessage());
        // ... while AUTO smooths it instead and keeps the condition
        PhasedSchedule auto = schedule(PhasedSgd.builder().baseStepSize(100).build(), Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(1)), b);
        assertTrue(auto.prox() != null && auto.smoothness() <= 8 / 100.0 * (1 + 1e-12));
        // bisection on a loss that is not a GLL
        Loss nonGll = new Loss() {
            @Override public String name() { return "l2-distance"; }
            @Override public double value(DMatrixRMaj w, Dataset dd, int i) { return Vectors.norm2(w); }
            @Override public void gradient(DMatrixRMaj w, Dataset dd, int i, DMatrixRMaj out) { Vectors.zero(out); }
            @Override public double lipschitz(double r) { return 1; }
            @Override public double smoothness(double r) { return Double.POSITIVE_INFINITY; }
            @Override public Convexity convexity() { return Convexity.CONVEX; }
            @Override public boolean isClassification() { return false; }
        };
        e = assertThrows(IllegalArgumentException.class,
                () -> schedule(PhasedSgd.defaults(), Problem.of(data, nonGll, ConvexSets.l2Ball(1)), b));
        assertTrue(e.getMessage().startsWith("loss l2-distance must be a convex generalized linear loss"), e.getMessage());
        // non-convex loss: gradient steps need not be non-expansive, the sensitivity bound fails
        Loss nonConvex = new Loss() {
            @Override public String name() { return "nc"; }
            @Override public double value(DMatrixRMaj w, Dataset dd, int i) { return 0; }
            @Override public void gradient(DMatrixRMaj w, Dataset dd, int i, DMatrixRMaj out) { Vectors.zero(out); }
            @Override public double lipschitz(double r) { return 1; }
            @Override public double smoothness(double r) { return 0.1; }
            @Override public Convexity convexity() { return Convexity.WEAKLY_CONVEX; }
            @Override public boolean isClassification() { return false; }
        };
        e = assertThrows(IllegalArgumentException.class,
                () -> schedule(PhasedSgd.defaults(), Problem.of(data, nonConvex, ConvexSets.l2Ball(1)), b));
        assertTrue(e.getMessage().startsWith("convexity of nc must be CONVEX for phased-sgd"), e.getMessage());
        // add/remove accountant: phases compose in parallel only under replace-one with a positional split
        e = assertThrows(IllegalArgumentException.class, () -> PhasedSgd.builder().accountant(new RdpAccountant()));
        assertTrue(e.getMessage().startsWith("accountant relation must be REPLACE_ONE"), e.getMessage());
        // paper noise where the accountant cannot certify it (large ε, δ)
        e = assertThrows(IllegalArgumentException.class, () -> schedule(PhasedSgd.builder().noise(PhasedSgd.Noise.PAPER).build(), Problem.of(data, Losses.hinge(), ConvexSets.l2Ball(1)), PrivacyBudget.of(50, 0.1)));
        assertTrue(e.getMessage().contains("must be at most the budget 50.0"), e.getMessage());
        // bad builder values
        assertThrows(IllegalArgumentException.class, () -> PhasedSgd.builder().baseStepSize(0));
        assertThrows(IllegalArgumentException.class, () -> PhasedSgd.builder().baseStepSize(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> PhasedSgd.builder().comparatorRadius(-1));
        assertThrows(IllegalArgumentException.class, () -> PhasedSgd.builder().rankBound(0));
        assertThrows(IllegalArgumentException.class, () -> PhasedSgd.builder().bisectionAccuracy(0));
        assertThrows(IllegalArgumentException.class, () -> PhasedSgd.builder().oracle(null));
        assertThrows(IllegalArgumentException.class, () -> PhasedSgd.builder().order(null));
        assertThrows(IllegalArgumentException.class, () -> PhasedSgd.defaults().optimize(
                Problem.of(data, Losses.hinge(), ConvexSets.l2Ball(1)), b, null));
    }

    @Test
    void unconstrainedVariantUsesComparatorRadiusAndRank() {
        Problem p = Problem.of(data(4096, 50, 2), Losses.hinge());
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        PhasedSchedule full = schedule(PhasedSgd.builder().comparatorRadius(3).build(), p, b);
        assertFalse(full.constrained());
        assertEquals(3.0, full.diameter());
        double li = Math.log(1e6);
        assertEquals(3 * Math.min(4 / 64.0, 1 / Math.sqrt(50 * li)), full.eta(), 1e-15);
        PhasedSchedule low = schedule(PhasedSgd.builder().comparatorRadius(3).rankBound(2).build(), p, b);
        assertEquals(3 * Math.min(4 / 64.0, 1 / Math.sqrt(2 * li)), low.eta(), 1e-15);
        // same noise multiplier: privacy does not depend on the rank bound or D
        assertEquals(full.noiseMultiplier(), low.noiseMultiplier(), 0.0);
        // default D = √d when unconstrained
        assertEquals(Math.sqrt(50), schedule(PhasedSgd.defaults(), p, b).diameter(), 1e-15);
    }
}
