package org.dpopt.optim;

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
import org.dpopt.oracle.GllBisectionProx;
import org.dpopt.sampling.RecordOrder;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/** Phased-SGD schedules vs the formulas of ALGORITHMS.md §3, §4.2 and §8.7; ledger; refusals. */
class PhasedSgdTest {

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
        PhasedSgd.Plan plan = PhasedSgd.defaults().plan(p, PrivacyBudget.of(1, 1e-8));
        // §8.7: n = 1024 ⇒ k = 10, n_i = 512, 256, …, 1 (Σ = 1023)
        assertArrayEquals(new int[] {512, 256, 128, 64, 32, 16, 8, 4, 2, 1}, plan.phaseSizes());
        // n not a power of two: the last phase still gets one record and Σ n_i ≤ n
        for (int n : new int[] {3, 5, 1000, 4097, 12345}) {
            PhasedSgd.Plan q = PhasedSgd.defaults().plan(Problem.of(data(n, 3, 2), Losses.logistic(),
                    ConvexSets.l2Ball(1)), PrivacyBudget.of(1, 1e-6));
            int sum = 0;
            for (int s : q.phaseSizes()) {
                assertTrue(s >= 1);
                sum += s;
            }
            assertTrue(sum <= n, "n=" + n + " sum=" + sum);
            assertEquals(PhasedSgd.phaseCount(n), q.phaseSizes().length);
        }
    }

    /** §8.7: L = D = 1, d = 100, ε = 1, δ = 1e−8, n = 1024: η = 0.0232995, paper σ_1 = 0.1. */
    @Test
    void stepAndPaperNoiseMatchSpecNumbers() {
        Problem p = Problem.of(data(1024, 100, 1), Losses.logistic(), ConvexSets.l2Ball(0.5));
        assertEquals(1.0, p.lipschitz());
        PhasedSgd.Plan plan = PhasedSgd.builder().noise(PhasedSgd.Noise.PAPER).build().plan(p, PrivacyBudget.of(1, 1e-8));
        assertEquals(0.0232995, plan.eta(), 1e-7);
        assertEquals(1.0, plan.diameter());
        assertTrue(plan.prox() == null, "logistic is smooth enough: exact gradients");
        for (int i = 0; i < 10; i++) {
            assertEquals(plan.eta() / Math.pow(4, i + 1), plan.stepSizes()[i], 1e-18);
            assertEquals(2 * plan.stepSizes()[i], plan.sensitivities()[i], 1e-18);
            assertEquals(4 * plan.stepSizes()[i] * Math.sqrt(Math.log(1e8)), plan.sigmas()[i], 1e-15);
        }
        assertEquals(0.1, plan.sigmas()[0], 1e-12);
    }

    @Test
    void calibratedNoiseUsesExactGaussianCurve() {
        Problem p = Problem.of(data(1024, 100, 1), Losses.logistic(), ConvexSets.l2Ball(0.5));
        for (double eps : new double[] {0.5, 1, 8}) {
            PhasedSgd.Plan plan = PhasedSgd.defaults().plan(p, PrivacyBudget.of(eps, 1e-8));
            double z = GaussianMechanism.noiseMultiplier(eps, 1e-8);
            assertEquals(z, plan.noiseMultiplier(), 2e-4 * z);
            assertTrue(GaussianMechanism.epsilon(1e-8, plan.noiseMultiplier()) <= eps * (1 + 1e-9));
            for (int i = 0; i < 10; i++) {
                assertEquals(plan.noiseMultiplier() * 2 * plan.stepSizes()[i], plan.sigmas()[i], 1e-15);
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
        PhasedSgd.Plan plan = PhasedSgd.defaults().plan(p, b);
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
            double delta = 2 * plan.stepSizes()[i] * (1 + e * plan.phaseSizes()[i]);
            assertEquals(delta, plan.sensitivities()[i], 1e-15);
            assertTrue(plan.sensitivities()[i] <= 3 * plan.stepSizes()[i], "Δ_i ≤ 3Lη_i for α = L0/n");
        }
    }

    @Test
    void ledgerEqualsStatementExactAndBisection() {
        Dataset data = data(3000, 8, 5);
        PrivacyBudget b = PrivacyBudget.of(2, 1e-6);
        for (Loss loss : new Loss[] {Losses.logistic(), Losses.hinge(), Losses.absolute()}) {
            for (boolean constrained : new boolean[] {true, false}) {
                Problem p = constrained ? Problem.of(data, loss, ConvexSets.l2Ball(2)) : Problem.of(data, loss);
                PhasedSgd opt = PhasedSgd.defaults();
                DpEvent statement = opt.privacyEvent(p, b);
                OptimizationResult r = opt.optimize(p, b, Rngs.seeded(9));
                assertEquals(DpEvents.normalize(statement), r.ledger());
                assertEquals(NeighboringRelation.REPLACE_ONE, r.privacy().relation());
                assertTrue(r.privacy().epsilon() <= 2 * (1 + 1e-9));
                assertTrue(r.privacy().epsilon() >= 2 * 0.99, "calibrated, not wasteful");
                int k = PhasedSgd.phaseCount(3000);
                assertEquals(new ParallelComposedEvent(Collections.nCopies(k,
                        (DpEvent) new GaussianEvent(r.legacyParameter("noise_multiplier")))), statement);
                assertTrue(r.legacyDiagnostic("gradient_evaluations") <= 3000);
                if (!"logistic".equals(loss.name())) {
                    double calls = r.legacyDiagnostic("scalar_subgradient_calls");
                    assertTrue(calls <= r.legacyParameter("max_scalar_subgradient_calls"));
                    assertTrue(calls >= 2 * r.legacyDiagnostic("gradient_evaluations"));
                }
                if (constrained) {
                    // the last phase's average is in W; only its noise (σ_k tiny) can leave it
                    assertTrue(Vectors.norm2(r.solution()) <= 2 + 10 * r.legacyParameter("sigma_last") * Math.sqrt(8));
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
        assertTrue(r.privacy().epsilon() <= 1 + 1e-9);
        assertEquals(DpEvents.normalize(opt.privacyEvent(p, PrivacyBudget.of(1, 1e-6))), r.ledger());
        // RDP is looser than the exact curve for a single Gaussian: more noise
        double zBasic = PhasedSgd.defaults().plan(p, PrivacyBudget.of(1, 1e-6)).noiseMultiplier();
        assertTrue(r.legacyParameter("noise_multiplier") > zBasic);
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
    }

    @Test
    void orderIsAPermutationDependingOnlyOnNAndTheRng() {
        for (RecordOrder o : RecordOrder.values()) {
            PhasedSgd opt = PhasedSgd.builder().order(o).build();
            for (int n : new int[] {2, 17, 1000}) {
                int[] a = opt.order(n, Rngs.seeded(3));
                int[] b = opt.order(n, Rngs.seeded(3));
                assertArrayEquals(a, b);
                int[] sorted = a.clone();
                java.util.Arrays.sort(sorted);
                for (int i = 0; i < n; i++) {
                    assertEquals(i, sorted[i]);
                }
                if (o == RecordOrder.GIVEN) {
                    assertEquals(0, a[0]);
                    assertEquals(n - 1, a[n - 1]);
                }
                if (o == RecordOrder.BLOCK_SHUFFLE) {
                    // blocks of 16 adjacent rows stay together
                    for (int i = 0; i + 1 < n; i++) {
                        if (a[i] % RecordOrder.BLOCK != RecordOrder.BLOCK - 1 && a[i] != n - 1) {
                            assertEquals(a[i] + 1, a[i + 1]);
                        }
                    }
                }
            }
            if (o != RecordOrder.GIVEN) {
                assertFalse(java.util.Arrays.equals(opt.order(1000, Rngs.seeded(3)), opt.order(1000, Rngs.seeded(4))));
            }
        }
    }

    @Test
    void refusesConfigurationsThatVoidTheTheorem() {
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        Dataset data = data(500, 5, 1);
        // n < 2
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PhasedSgd.defaults()
                .plan(Problem.of(data.subset(new int[] {0}), Losses.logistic(), ConvexSets.l2Ball(1)), b));
        assertTrue(e.getMessage().startsWith("dataset size n must be at least 2"), e.getMessage());
        // exact oracle on a non-smooth loss
        e = assertThrows(IllegalArgumentException.class, () -> PhasedSgd.builder().oracle(PhasedSgd.OracleChoice.EXACT)
                .build().plan(Problem.of(data, Losses.hinge(), ConvexSets.l2Ball(1)), b));
        assertTrue(e.getMessage().startsWith("smoothness beta of hinge must be at most 8/eta"), e.getMessage());
        // exact oracle with a step so large that η_1 > 2/β (logistic β = 1/4 > 8/η for η = 100)
        e = assertThrows(IllegalArgumentException.class, () -> PhasedSgd.builder().oracle(PhasedSgd.OracleChoice.EXACT)
                .baseStepSize(100).build().plan(Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(1)), b));
        assertTrue(e.getMessage().contains("step-size condition"), e.getMessage());
        // ... while AUTO smooths it instead and keeps the condition
        PhasedSgd.Plan auto = PhasedSgd.builder().baseStepSize(100).build()
                .plan(Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(1)), b);
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
                () -> PhasedSgd.defaults().plan(Problem.of(data, nonGll, ConvexSets.l2Ball(1)), b));
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
                () -> PhasedSgd.defaults().plan(Problem.of(data, nonConvex, ConvexSets.l2Ball(1)), b));
        assertTrue(e.getMessage().startsWith("convexity of nc must be CONVEX for phased-sgd"), e.getMessage());
        // add/remove accountant: phases compose in parallel only under replace-one with a positional split
        e = assertThrows(IllegalArgumentException.class, () -> PhasedSgd.builder().accountant(new RdpAccountant()));
        assertTrue(e.getMessage().startsWith("accountant relation must be REPLACE_ONE"), e.getMessage());
        // paper noise where the accountant cannot certify it (large ε, δ)
        e = assertThrows(IllegalArgumentException.class, () -> PhasedSgd.builder().noise(PhasedSgd.Noise.PAPER).build()
                .plan(Problem.of(data, Losses.hinge(), ConvexSets.l2Ball(1)), PrivacyBudget.of(50, 0.1)));
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
        PhasedSgd.Plan full = PhasedSgd.builder().comparatorRadius(3).build().plan(p, b);
        assertFalse(full.constrained());
        assertEquals(3.0, full.diameter());
        double li = Math.log(1e6);
        assertEquals(3 * Math.min(4 / 64.0, 1 / Math.sqrt(50 * li)), full.eta(), 1e-15);
        PhasedSgd.Plan low = PhasedSgd.builder().comparatorRadius(3).rankBound(2).build().plan(p, b);
        assertEquals(3 * Math.min(4 / 64.0, 1 / Math.sqrt(2 * li)), low.eta(), 1e-15);
        // same noise multiplier: privacy does not depend on the rank bound or D
        assertEquals(full.noiseMultiplier(), low.noiseMultiplier(), 0.0);
        // default D = √d when unconstrained
        assertEquals(Math.sqrt(50), PhasedSgd.defaults().plan(p, b).diameter(), 1e-15);
    }
}
