package org.dpopt.optim.smoothing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.Diagnostics;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.PrivateOptimizerContract;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.sgd.Bftt19Sgd;
import org.dpopt.oracle.GllBisectionProx;
import org.dpopt.oracle.MoreauEnvelopeOracle;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** A_ProxGD: smoothing parameters, cost accounting, privacy statement = wrapped noisy SGD's; contract. */
class ProxSgdTest {

    @Nested
    class PaperPresetContract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return ProxSgd.builder().relativeAccuracy(0.5).build();
        }

        @Override
        protected Problem problem() {
            return ProxSgdTest.problem(400);
        }
    }

    @Nested
    class PracticalContract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return ProxSgd.builder().noisySgd(NoisySgd.builder().epochs(1).batchSize(40).build())
                    .relativeAccuracy(0.5).build();
        }

        @Override
        protected Problem problem() {
            return Problem.of(ProxSgdTest.problem(400).data(), Losses.hinge());
        }
    }

    private static ProxSgd.Plan detail(ProxSgd opt, Problem p, PrivacyBudget b) {
        return opt.plan(p.shape(), b).detail(ProxSgd.Plan.class);
    }

    private static Problem problem(int n) {
        HardLinearFamily fam = new HardLinearFamily(4, 5, 3);
        return Problem.of(fam.sample(n, 1), Losses.hinge(), ConvexSets.l2Ball(1));
    }

    @Test
    void smoothingAtTheStabilityLimitAndInnerSteps() {
        Problem p = problem(800);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        RunPlan plan = ProxSgd.builder().build().plan(p.shape(), b);
        MoreauEnvelopeOracle env = (MoreauEnvelopeOracle) plan.detail(ProxSgd.Plan.class).envelope();
        double limit = Math.min(Math.sqrt(400), 800 / Math.sqrt(8 * 4 * Math.log(1e5)));
        assertEquals(limit, env.beta(), 1e-9 * limit);
        assertTrue(env.beta() <= limit);
        assertEquals(env.beta(), plan.parameters().real(Param.SMOOTHNESS), 0.0);
        assertEquals(1 / Math.sqrt(800), env.accuracy(), 1e-15);
        assertEquals(env.accuracy(), plan.parameters().real(Param.SMOOTHING_ACCURACY), 0.0);
        assertEquals(MoreauEnvelopeOracle.innerStepsFor(1, 1 / Math.sqrt(800)), env.innerSteps());
        assertEquals(16 * 800 - 1, env.innerSteps());
        assertEquals(16 * 800 - 1, plan.parameters().real(Param.INNER_STEPS));
        // the base plan is the BFTT19 preset's plan on the envelope's shape: its parameters are kept
        assertEquals("paper", plan.parameters().get(Param.PRESET));
        assertEquals(plan.parameters().real(Param.NOISE_MULTIPLIER),
                plan.detail(ProxSgd.Plan.class).basePlan().parameters().real(Param.NOISE_MULTIPLIER), 0.0);
        ProxSgd.Plan paper = detail(ProxSgd.builder().relativeAccuracy(1.0 / 800).build(), p, b);
        assertEquals(16L * 800 * 800 - 1, paper.innerSteps());
    }

    @Test
    void ledgerEqualsStatementAndCostIsCounted() {
        Problem p = problem(600);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        ProxSgd opt = ProxSgd.builder().relativeAccuracy(0.2).diagnostics(true).build();
        OptimizationResult r = opt.optimize(p, b, Rngs.seeded(1));
        assertEquals(DpEvents.normalize(opt.privacyEvent(p, b)), r.ledger());
        assertEquals(NeighboringRelation.ADD_OR_REMOVE_ONE, r.privacy().relation());
        assertTrue(r.privacy().epsilon() <= 1 + 1e-9);
        assertEquals("prox-sgd", r.plan().algorithm());
        Diagnostics diag = r.nonPrivateDiagnostics();
        double perExample = diag.get(Diagnostic.GRADIENT_EVALUATIONS);
        assertTrue(perExample > 0);
        assertEquals(perExample * (16 * 25 - 1), diag.get(Diagnostic.INNER_GRADIENT_EVALUATIONS), 0.0);
        // same event as the BFTT19 noisy SGD on a smooth loss with the same n, d, L, M
        assertEquals(Bftt19Sgd.builder().preset(Preset.PAPER).build().privacyEvent(Problem.of(p.data(), Losses.logistic(), p.domain()), b),
                opt.privacyEvent(p, b));
        // train loss is reported for the original hinge loss
        assertEquals(p.empiricalRisk(r.solution()), diag.get(Diagnostic.TRAIN_LOSS), 1e-12);
        // without diagnostics: none, and the same model (diagnostics never touch the release)
        OptimizationResult plain = ProxSgd.builder().relativeAccuracy(0.2).build().optimize(p, b, Rngs.seeded(1));
        assertTrue(plain.nonPrivateDiagnostics().isEmpty());
        assertArrayEquals(r.solution().data, plain.solution().data, 0.0);
    }

    @Test
    void practicalModeWrapsDpSgd() {
        Problem p = Problem.of(problem(500).data(), Losses.absolute());
        PrivacyBudget b = PrivacyBudget.of(2, 1e-5);
        NoisySgd sgd = NoisySgd.builder().epochs(2).batchSize(50).learningRate(0.5).build();
        ProxSgd opt = ProxSgd.builder().noisySgd(sgd).relativeAccuracy(0.5).smoothness(10)
                .innerProx(ProxSgd.InnerProx.SUBGRADIENT).build();
        OptimizationResult r = opt.optimize(p, b, Rngs.seeded(2));
        assertEquals(DpEvents.normalize(sgd.privacyEvent(p, b)), r.ledger());
        assertEquals(10.0, r.parameters().real(Param.SMOOTHNESS));
        assertEquals(63.0, r.parameters().real(Param.INNER_STEPS));
        assertEquals("subgradient", r.parameters().get(Param.INNER_PROX));
        assertEquals(0.5, r.parameters().real(Param.LEARNING_RATE));
        assertEquals(50.0, r.parameters().real(Param.BATCH_SIZE));
    }

    /**
     * Practical mode on a GLL: the bisection prox of φ's scalar envelope with parameter β/R², to the
     * paper's accuracy L/n in ⌈log₂(2n)⌉ + 2 calls; the same privacy event as the subgradient solve.
     */
    @Test
    void practicalModeOnAGllUsesTheBisectionProx() {
        Problem p = Problem.of(problem(500).data(), Losses.hinge());
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        NoisySgd sgd = NoisySgd.builder().epochs(2).batchSize(50).build();
        ProxSgd opt = ProxSgd.builder().noisySgd(sgd).smoothness(10).build();
        RunPlan plan = opt.plan(p.shape(), b);
        ProxSgd.Plan detail = plan.detail(ProxSgd.Plan.class);
        GllBisectionProx prox = (GllBisectionProx) detail.envelope();
        double rows = p.shape().rowNormBound();
        double lip = p.shape().lipschitz();
        assertEquals(10 / (rows * rows), prox.beta(), 1e-15);
        assertEquals(10.0, prox.smoothness(rows), 1e-12);
        assertEquals(lip / 500 / rows, prox.accuracy(), 1e-15);
        assertEquals(GllBisectionProx.halvings(1, 1.0 / 500) + 2, detail.innerSteps());
        assertEquals((int) Math.ceil(Math.log(1000) / Math.log(2)) + 2, detail.innerSteps());
        assertEquals(detail.innerSteps(), plan.parameters().real(Param.INNER_STEPS));
        assertEquals("bisection", plan.parameters().get(Param.INNER_PROX));
        assertEquals(lip / 500, plan.parameters().real(Param.SMOOTHING_ACCURACY), 1e-15);
        OptimizationResult r = opt.optimize(p, b, Rngs.seeded(3));
        assertEquals(DpEvents.normalize(sgd.privacyEvent(p, b)), r.ledger());
        ProxSgd general = ProxSgd.builder().noisySgd(sgd).smoothness(10).innerProx(ProxSgd.InnerProx.SUBGRADIENT)
                .build();
        assertEquals(general.privacyEvent(p, b), opt.privacyEvent(p, b));
        assertEquals(general.plan(p.shape(), b).parameters().real(Param.NOISE_MULTIPLIER),
                plan.parameters().real(Param.NOISE_MULTIPLIER), 0.0);
    }

    /**
     * On rows with ‖x‖ = R the scalar envelope with parameter β/R² is the envelope in w: the bisection
     * gradient and the inner subgradient solve's agree within the sum of their error bounds.
     */
    @Test
    void bisectionAndSubgradientSolveAgreeOnRowsAtTheBound() {
        int d = 3;
        double[][] x = {{0.6, 0.8, 0}, {0, -1, 0}, {0.48, 0.6, -0.64}};
        Dataset data = Dataset.of(x, new double[] {1, -1, 1}, 1.0);
        double beta = 4;
        GllBisectionProx prox = GllBisectionProx.of(Losses.hinge(), beta, 1e-9);
        MoreauEnvelopeOracle moreau = MoreauEnvelopeOracle.of(Losses.hinge(), 1, beta, 1e-2, d);
        var bis = prox.newOracle(d, 1.0);
        DMatrixRMaj w = new DMatrixRMaj(new double[] {0.3, -0.2, 0.5});
        DMatrixRMaj a = new DMatrixRMaj(d, 1);
        DMatrixRMaj c = new DMatrixRMaj(d, 1);
        for (int i = 0; i < 3; i++) {
            bis.gradient(w, data, i, a);
            moreau.gradient(w, data, i, c);
            double tol = prox.derivativeErrorBound() + moreau.errorBound();
            for (int j = 0; j < d; j++) {
                assertEquals(c.get(j), a.get(j), tol, "row " + i + " coordinate " + j);
            }
        }
    }

    /** A run uses a plan made for its loss; a plan for another loss is refused, not silently smoothed. */
    @Test
    void refusesAPlanForAnotherLoss() {
        Problem p = problem(300);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        ProxSgd opt = ProxSgd.builder().relativeAccuracy(0.5).build();
        RunPlan plan = opt.plan(p.shape(), b);
        Problem other = Problem.of(p.data(), Losses.absolute(), p.domain());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> opt.run(other, plan, Rngs.seeded(1)));
        assertTrue(e.getMessage().startsWith("loss must be the planned hinge"), e.getMessage());
    }

    @Test
    void refusals() {
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        Dataset data = problem(300).data();
        // paper preset needs a bounded domain (refused by the wrapped noisy SGD)
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ProxSgd.builder().build().privacyEvent(Problem.of(data, Losses.hinge()), b));
        assertTrue(e.getMessage().startsWith("domain radius M must be finite"), e.getMessage());
        // smoothing above the stability limit is refused by the wrapped noisy SGD's theorem check
        e = assertThrows(IllegalArgumentException.class, () -> ProxSgd.builder().smoothness(1e6).build()
                .privacyEvent(Problem.of(data, Losses.hinge(), ConvexSets.l2Ball(1)), b));
        assertTrue(e.getMessage().startsWith("smoothness beta must be at most"), e.getMessage());
        // inner accuracy so fine that τ overflows
        e = assertThrows(IllegalArgumentException.class, () -> ProxSgd.builder().relativeAccuracy(1e-6).build()
                .privacyEvent(Problem.of(data, Losses.hinge(), ConvexSets.l2Ball(1)), b));
        assertTrue(e.getMessage().startsWith("inner steps"), e.getMessage());
        Loss nonConvex = new Loss() {
            @Override public String name() { return "nc"; }
            @Override public double value(DMatrixRMaj w, Dataset d, int i) { return 0; }
            @Override public void gradient(DMatrixRMaj w, Dataset d, int i, DMatrixRMaj out) { }
            @Override public double lipschitz(double r) { return 1; }
            @Override public double smoothness(double r) { return 1; }
            @Override public Convexity convexity() { return Convexity.NONCONVEX; }
            @Override public boolean isClassification() { return false; }
        };
        e = assertThrows(IllegalArgumentException.class, () -> ProxSgd.builder().build()
                .privacyEvent(Problem.of(data, nonConvex, ConvexSets.l2Ball(1)), b));
        assertTrue(e.getMessage().startsWith("convexity of nc must be CONVEX"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ProxSgd.builder().smoothness(0));
        assertThrows(IllegalArgumentException.class, () -> ProxSgd.builder().relativeAccuracy(-1));
        assertThrows(IllegalArgumentException.class, () -> ProxSgd.builder().comparatorRadius(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> ProxSgd.builder().noisySgd(null));
        assertThrows(IllegalArgumentException.class, () -> ProxSgd.builder().innerProx(null));
        assertThrows(IllegalArgumentException.class, () -> ProxSgd.builder().accountant(
                new org.dpopt.accounting.BasicCompositionAccountant(NeighboringRelation.REPLACE_ONE)));
    }
}
