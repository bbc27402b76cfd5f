package org.dpopt.optim.check;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.ComposedEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.Polytopes;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.PrivateOptimizerContract;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;
import org.dpopt.optim.objpert.ObjectivePerturbation;
import org.dpopt.optim.sgd.NoisySgd;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ConstantCheckTest {
    private static final double C = 0.5;

    /**
     * n rows uniform in the unit ball of ℝ³ with an intercept column c = 0.5; the label is 1 where
     * x₀ &gt; 0 ({@code separable}) or, independently of x, where a fixed-seed draw falls below
     * {@code positiveRate}.
     */
    static Problem problem(int n, boolean separable, double positiveRate, long seed) {
        UniformRandomProvider g = Rngs.seeded(seed);
        Dataset data = Dataset.generate(n, 3, 1.0, (i, row) -> {
            double norm;
            do {
                norm = 0;
                for (int j = 0; j < 3; j++) {
                    row[j] = 2 * g.nextDouble() - 1;
                    norm += row[j] * row[j];
                }
            } while (norm > 1);
            return separable ? (row[0] > 0 ? 1 : 0) : (g.nextDouble() < positiveRate ? 1 : 0);
        });
        return Problem.of(data, Losses.logistic()).withIntercept(C);
    }

    private static Problem inBall(Problem p, double radius) {
        return new Problem(p.data(), p.loss(), Polytopes.l1Ball(radius), p.declaredSize(), p.interceptScale());
    }

    private static long correct(Problem p, DMatrixRMaj w) {
        return ClassCounts.of(p.data()).correct(w);
    }

    @Nested
    class Contract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return ConstantCheck.builder(NoisySgd.builder().build()).build();
        }

        @Override
        protected Problem problem() {
            return ConstantCheckTest.problem(2000, true, 0, 11);
        }
    }

    @Test
    void statementComposesTheTrainedRunWithThePureSelectionAndStaysInBudget() {
        Problem p = problem(1000, true, 0, 1);
        PrivacyBudget b = PrivacyBudget.of(1.0, 1e-5);
        PrivateOptimizer trained = NoisySgd.builder().build();
        ConstantCheck check = ConstantCheck.builder(trained).share(0.2).build();
        RunPlan plan = check.plan(p.shape(), b);
        RunPlan inner = ConstantCheck.trainedPlan(plan);
        assertEquals(DpEvents.normalize(new ComposedEvent(List.of(inner.statement(), new EpsilonDeltaEvent(0.2, 0)))),
                plan.statement());
        assertTrue(inner.budget().epsilon() <= 0.8 + 1e-12, "trained budget " + inner.budget());
        assertEquals(0.2, plan.parameters().real(Param.CONSTANT_CHECK_EPSILON), 1e-15);
        assertEquals(1 / 0.2, plan.parameters().real(Param.CONSTANT_CHECK_SCALE), 1e-12, "add/remove: monotone counts");
        assertEquals(trained.name(), plan.algorithm());
        OptimizationResult r = check.run(p, plan, Rngs.seeded(3));
        assertEquals(plan.statement(), r.ledger());
        assertTrue(r.privacy().epsilon() <= 1.0 * (1 + 1e-9), "spent " + r.privacy().epsilon());
        assertTrue(r.privacy().epsilon() > inner.report().epsilon(), "the check's epsilon is charged");
    }

    @Test
    void replaceOneDoublesTheLaplaceScale() {
        Problem p = problem(500, true, 0, 2);
        ConstantCheck check = ConstantCheck.builder(ObjectivePerturbation.builder().lambda(0.05).build()).build();
        assertEquals(NeighboringRelation.REPLACE_ONE, check.relation());
        RunPlan plan = check.plan(p.shape(), PrivacyBudget.of(2.0, 1e-5));
        assertEquals(2 / 0.2, plan.parameters().real(Param.CONSTANT_CHECK_SCALE), 1e-12);
        OptimizationResult r = check.run(p, plan, Rngs.seeded(4));
        assertEquals(plan.statement(), r.ledger());
        assertTrue(r.privacy().epsilon() <= 2.0 * (1 + 1e-9));
    }

    /**
     * Labels independent of x, 85 % positive: a trained classifier scores at most the positive count only
     * by predicting (almost) everything positive. At ε = 2000 the check's Laplace scale is 1/200, so each
     * comparison of integer counts one apart errs with probability below e^{-100}: the release is the one
     * with the larger exact count (ties aside, checked below).
     */
    @Test
    void aClassifierWorseThanTheMajorityIsReplacedByTheConstantOne() {
        Problem p = problem(600, false, 0.85, 5);
        long positives = ClassCounts.of(p.data()).positives();
        PrivateOptimizer trained = NoisyFrankWolfe.builder().iterations(1).build();
        ConstantCheck check = ConstantCheck.builder(trained).diagnostics(true).build();
        for (long seed = 1; seed <= 5; seed++) {
            OptimizationResult r = check.optimize(inBall(p, 1.0), PrivacyBudget.of(2000, 1e-5),
                    Rngs.seeded(seed));
            long margin = (long) r.nonPrivateDiagnostics().get(Diagnostic.CONSTANT_CHECK_LEAD);
            if (margin < 0) {
                assertArrayEquals(new double[] {0, 0, 0, 1 / C}, r.solution().data, 0.0);
                assertEquals(positives, correct(p, r.solution()));
                assertTrue(String.join(" ", r.privacy().notes()).contains("constant classifier of the positive"));
            } else if (margin > 0) {
                assertTrue(correct(p, r.solution()) > positives);
            }
        }
        // the constant classifier of the positive class was released at least once: the one-step model
        // is a vertex ±e_j (j < 3) or the intercept's, and only +e_3 matches the majority
        long replaced = 0;
        for (long seed = 1; seed <= 5; seed++) {
            OptimizationResult r = check.optimize(inBall(p, 1.0), PrivacyBudget.of(2000, 1e-5),
                    Rngs.seeded(seed));
            replaced += String.join(" ", r.privacy().notes()).contains("instead of the trained one") ? 1 : 0;
        }
        assertTrue(replaced >= 1, "never replaced");
    }

    /**
     * Separable labels, DP-SGD at a fixed small noise multiplier and a check at ε₀ = 200: the model beats
     * both constants by far and is kept (a wrong choice has probability below e^{-100}).
     */
    @Test
    void aGoodClassifierIsKept() {
        Problem p = problem(800, true, 0, 6);
        PrivateOptimizer trained = NoisySgd.builder().noiseMultiplier(0.5).build();
        OptimizationResult alone = trained.optimize(p, PrivacyBudget.of(1800, 1e-5), Rngs.seeded(7));
        assertTrue(correct(p, alone.solution()) > 0.9 * 800, "the trained model is good");
        OptimizationResult r = ConstantCheck.builder(trained).build().optimize(p, PrivacyBudget.of(2000, 1e-5),
                Rngs.seeded(7));
        assertTrue(correct(p, r.solution()) > 0.9 * 800);
        assertTrue(String.join(" ", r.privacy().notes()).contains("the trained classifier was released"));
        assertNotEquals(0.0, r.solution().get(0), "not an intercept-only model");
    }

    @Test
    void constantClassifiersAreProjectedOntoTheDomain() {
        Problem p = inBall(problem(50, true, 0, 8), 0.5);
        DMatrixRMaj w = ConstantCheck.constant(p.shape(), -1);
        assertArrayEquals(new double[] {0, 0, 0, -0.5}, w.data, 0.0);
    }

    @Test
    void refusesWhatItCannotCheck() {
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        ConstantCheck check = ConstantCheck.builder(NoisySgd.builder().build()).build();
        Problem p = problem(100, true, 0, 9);
        assertThrows(IllegalArgumentException.class,
                () -> check.plan(Problem.of(p.data(), Losses.logistic()).shape(), b), "no intercept");
        assertThrows(IllegalArgumentException.class,
                () -> check.plan(p.withLoss(Losses.squared(2, 1)).shape(), b), "regression loss");
        assertThrows(IllegalArgumentException.class, () -> ConstantCheck.builder(NoisySgd.builder().build()).share(1));
        assertThrows(IllegalArgumentException.class, () -> ConstantCheck.builder(NoisySgd.builder().build()).share(0));
        assertThrows(IllegalArgumentException.class, () -> ConstantCheck.builder(null));
        RunPlan plan = check.plan(p.shape(), b);
        OptimizationResult other = NoisySgd.builder().build().optimize(p, b, Rngs.seeded(1));
        assertThrows(IllegalArgumentException.class, () -> check.check(plan, p.shape(), other,
                ClassCounts.of(p.data()), Rngs.seeded(2)), "a result of another plan");
    }

    /** The distributed entry gives the in-memory bits when the engine runs the trained plan itself. */
    @Test
    void theEngineEntryMatchesTheInMemoryRun() {
        Problem p = problem(700, true, 0, 10);
        ConstantCheck check = ConstantCheck.builder(NoisySgd.builder().build()).build();
        RunPlan plan = check.plan(p.shape(), PrivacyBudget.of(1, 1e-5));
        OptimizationResult direct = check.run(p, plan, Rngs.seeded(12));
        UniformRandomProvider g = Rngs.seeded(12);
        OptimizationResult stage = check.trained().run(p, ConstantCheck.trainedPlan(plan), g);
        OptimizationResult viaEngine = check.check(plan, p.shape(), stage, ClassCounts.of(p.data()), g);
        assertArrayEquals(direct.solution().data, viaEngine.solution().data, 0.0);
        assertEquals(direct.ledger(), viaEngine.ledger());
    }

    /** Secure noise: the check's implementation δ counts the trained stage's draws and its own three. */
    @Test
    void secureNoiseChargesBothStagesAndNotesAreNotRepeated() {
        Problem p = problem(300, true, 0, 13);
        ConstantCheck check = ConstantCheck.builder(NoisySgd.builder().epochs(2).build()).build();
        RunPlan plan = check.plan(p.shape(), PrivacyBudget.of(1, 1e-5));
        UniformRandomProvider g = Rngs.secure();
        OptimizationResult stage = check.trained().run(p, ConstantCheck.trainedPlan(plan), g);
        assertTrue(stage.secureDraws() > 0);
        OptimizationResult r = check.check(plan, p.shape(), stage, ClassCounts.of(p.data()), g);
        assertEquals(stage.secureDraws() + 3, r.secureDraws());
        List<String> notes = r.privacy().notes();
        assertEquals(notes.size(), new java.util.HashSet<>(notes).size(), "a note repeated: " + notes);
        assertThrows(IllegalArgumentException.class, () -> ConstantCheck.builder(check));
        OptimizationResult seeded = check.trained().run(p, ConstantCheck.trainedPlan(plan), Rngs.seeded(1));
        assertThrows(IllegalArgumentException.class, () -> check.check(plan, p.shape(), seeded,
                ClassCounts.of(p.data()), Rngs.secure()), "a seeded stage in a secure run");
    }
    /**
     * The head start enters the noisy choice as the double {@code correct + m}. The selection's ℓ∞
     * sensitivity is 1 only if that sum is exact for every count 0..n the trained score can take: a rounded
     * sum can move by 1 plus a rounding step when one row is added (by 2 or more once m is near 2^53, e.g.
     * a margin of 1e15 scales at ε₀ = 0.1: ulp(1e16) = 2). So every planned m must keep k + m exact for
     * k = 0..n, or the margin must be refused.
     */
    @Test
    void theHeadStartKeepsEveryTrainedScoreExactSoTheSensitivityStaysOne() {
        Problem p = problem(2000, true, 0, 3);
        int n = p.data().size();
        // margin 2 scales at epsilon 0.3: scale 1/0.03, a head start of 66.66... rows (not a dyadic number)
        RunPlan plan = ConstantCheck.builder(NoisySgd.builder().build()).margin(2).build()
                .plan(p.shape(), PrivacyBudget.of(0.3, 1e-6));
        double m = plan.parameters().real(Param.CONSTANT_CHECK_MARGIN);
        assertEquals(2 / (0.1 * 0.3), m, 1e-9, "still two scales");
        assertExactForEveryCount(m, n);
        // an absurd but finite margin: exact, or refused
        ConstantCheck huge = ConstantCheck.builder(NoisySgd.builder().build()).margin(1e15).build();
        RunPlan hp;
        try {
            hp = huge.plan(p.shape(), PrivacyBudget.of(1.0, 1e-6));
        } catch (IllegalArgumentException refused) {
            return;
        }
        assertExactForEveryCount(hp.parameters().real(Param.CONSTANT_CHECK_MARGIN), n);
    }

    private static void assertExactForEveryCount(double m, int n) {
        java.math.BigDecimal exactM = new java.math.BigDecimal(m);
        for (long k = 0; k <= n; k++) {
            double score = k + m; // as the check computes the trained classifier's score
            assertEquals(0, new java.math.BigDecimal(score).compareTo(exactM.add(java.math.BigDecimal.valueOf(k))),
                    "count " + k + " + head start " + m + " rounds to " + score);
        }
    }
}
