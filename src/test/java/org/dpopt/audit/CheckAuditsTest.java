package org.dpopt.audit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.data.Dataset;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.RunPlan;
import org.dpopt.optim.check.ClassCounts;
import org.dpopt.optim.check.ConstantCheck;
import org.dpopt.optim.core.Mutation;
import org.dpopt.optim.core.ReleaseObserver;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The premises of the constant check's audit designs, checked on the pairs themselves: for
 * {@code label-flip-tie} (audited in {@link OptimizerAuditsTest}, the algorithm's first design) the trained
 * step's vertex +r·e_0 leads every other by at least 20 of its Laplace scales on both datasets, the
 * check's counts are the documented ones, its scale and margin are the replace-one ones, and the released
 * models are the three the statistic tells apart; for {@code added-row-tie} the one DP-SGD step predicts
 * every row as designed by at least 12 noise standard deviations, only the positive count moves, the
 * scale is the monotone one — and its audits, honest and mutants. Deterministic (fixed seeds; the leads
 * are computed, not sampled).
 */
class CheckAuditsTest {

    private static Problem problem(AuditTarget t, boolean withCanary) {
        return t.pair().problem(withCanary, t.loss(), t.domain());
    }

    private static RunPlan plan(AuditTarget t) {
        PrivateOptimizer check = t.factory().build(Mutation.NONE, ReleaseObserver.NONE);
        return check.plan(problem(t, true).shape(), t.budget());
    }

    /** Sorted scores ⟨v, ∇F̂(w_0)⟩ of the 4 vertices ±r·e_k at w_0 = +r·e_0 (the first vertex). */
    private static double[] vertexScores(Problem p, double r) {
        GeneralizedLinearLoss loss = (GeneralizedLinearLoss) p.loss();
        Dataset data = p.data();
        double[] g = new double[2];
        for (int i = 0; i < data.size(); i++) {
            double phi = loss.derivative(r * data.feature(i, 0), data.label(i)) / data.size();
            g[0] += phi * data.feature(i, 0);
            g[1] += phi * data.feature(i, 1);
        }
        return new double[] {r * g[0], -r * g[0], r * g[1], -r * g[1]};
    }

    @ParameterizedTest(name = "eps={0}")
    @ValueSource(doubles = {1, 4})
    void theTrainedVertexLeadsByTwentyScalesOnBothDatasets(double epsilon) {
        AuditTarget t = CheckAudits.constantCheck(epsilon);
        RunPlan trained = ConstantCheck.trainedPlan(plan(t));
        assertEquals(1.0, trained.parameters().real(Param.STEPS));
        double b = trained.parameters().real(Param.LAPLACE_SCALE);
        for (boolean side : new boolean[] {false, true}) {
            double[] s = vertexScores(problem(t, side), CheckAudits.RADIUS);
            double best = s[0];
            double second = Double.POSITIVE_INFINITY;
            for (int j = 1; j < s.length; j++) {
                second = Math.min(second, s[j]);
            }
            double lead = (second - best) / b;
            assertTrue(lead >= 20, "lead of +r e_0 " + lead + " scales on " + (side ? "D'" : "D"));
        }
    }

    @Test
    void countsAreTheDocumentedOnesAndOnlyThePositiveCountMovesAgainstItsRivals() {
        AuditTarget t = CheckAudits.constantCheck(4);
        int a = CheckAudits.anchors(4);
        assertEquals(20_000, CheckAudits.anchors(1));
        assertEquals(5_000, a);
        DMatrixRMaj w = new DMatrixRMaj(new double[][] {{CheckAudits.RADIUS}, {0}});
        long[][] want = {{a + 1, a + 1, a}, {a, a, a + 1}};
        for (int side = 0; side < 2; side++) {
            ClassCounts c = ClassCounts.of(problem(t, side == 1).data());
            long[] got = {c.correct(w), c.rows() - c.positives(), c.positives()};
            assertArrayEquals(want[side], got, side == 1 ? "D'" : "D");
        }
        assertEquals(NeighboringRelation.REPLACE_ONE, t.pair().relation());
        assertTrue(problem(t, true).hasIntercept());
        assertEquals(CheckAudits.INTERCEPT, problem(t, false).interceptScale());
    }

    @Test
    void theCheckUsesTheReplaceOneScaleAndTheMarginInItsScales() {
        RunPlan p = plan(CheckAudits.constantCheck(4));
        double eps0 = CheckAudits.SHARE * 4;
        assertEquals(eps0, p.parameters().real(Param.CONSTANT_CHECK_EPSILON), 1e-12);
        assertEquals(2 / eps0, p.parameters().real(Param.CONSTANT_CHECK_SCALE), 1e-12);
        assertEquals(CheckAudits.MARGIN * 2 / eps0, p.parameters().real(Param.CONSTANT_CHECK_MARGIN), 1e-12);
    }

    /** The statistic is positive exactly for the positive constant classifier among the three releases. */
    @Test
    void theReleasesAreTheTrainedVertexOrAConstantAndTheStatisticSeparatesThePositiveOne() {
        AuditTarget t = CheckAudits.constantCheck(4);
        PrivateOptimizer check = t.factory().build(Mutation.NONE, ReleaseObserver.NONE);
        RunPlan plan = plan(t);
        int positive = 0;
        for (int side = 0; side < 2; side++) {
            Problem p = problem(t, side == 1);
            for (long seed = 1; seed <= 40; seed++) {
                OptimizationResult r = check.run(p, plan, Rngs.seeded(seed));
                double[] w = r.solution().data;
                ConstantCheck.Choice c = ConstantCheck.choice(r).orElseThrow();
                double[] want = switch (c) {
                    case TRAINED -> new double[] {CheckAudits.RADIUS, 0};
                    case POSITIVE -> new double[] {0, CheckAudits.RADIUS};
                    case NEGATIVE -> new double[] {0, -CheckAudits.RADIUS};
                };
                assertArrayEquals(want, w, 1e-15, c + " on side " + side + ", seed " + seed);
                RunView v = new RunView(new double[0], new double[0], new double[0], new double[0], new int[0],
                        new int[0], r.solution(), t.pair().direction(0));
                boolean present = t.statistic().score(v) > t.statistic().fixedThreshold();
                assertEquals(c == ConstantCheck.Choice.POSITIVE, present);
                positive += present ? 1 : 0;
            }
        }
        assertTrue(positive > 0, "the positive constant was never released in 80 runs");
    }

    /**
     * The add/remove design: at w = 0 no gradient is clipped, so the one noisy step releases
     * w = −(S + ξ)/n with S the exact gradient sum and ξ ~ N(0, (zC)²) per coordinate; each row x is
     * predicted as the design says while −⟨S, x⟩ has the right sign and beats ⟨ξ, x⟩ ~ N(0, (zC‖x‖)²):
     * at least 12 standard deviations for every kind of row on both datasets.
     */
    @ParameterizedTest(name = "eps={0}")
    @ValueSource(doubles = {1, 4})
    void theOneSgdStepPredictsEveryRowAsDesignedByTwelveStandardDeviations(double epsilon) {
        AuditTarget t = CheckAudits.constantCheckAddRemove(epsilon);
        RunPlan trained = ConstantCheck.trainedPlan(plan(t));
        assertEquals(1.0, trained.parameters().real(Param.STEPS));
        assertEquals(1.0, trained.parameters().real(Param.SAMPLING_RATE));
        double sigma = trained.parameters().real(Param.SIGMA);
        double c = CheckAudits.SGD_INTERCEPT;
        double[][] rows = {{1, c}, {CheckAudits.SGD_WEAK, c}, {-CheckAudits.SGD_WEAK, c}};
        double[] wantSign = {1, 1, -1};
        for (boolean side : new boolean[] {false, true}) {
            Problem p = problem(t, side);
            GeneralizedLinearLoss loss = (GeneralizedLinearLoss) p.loss();
            double[] sum = new double[2];
            for (int i = 0; i < p.data().size(); i++) {
                double phi = loss.derivative(0, p.data().label(i));
                sum[0] += phi * p.data().feature(i, 0);
                sum[1] += phi * p.data().feature(i, 1);
                assertTrue(Math.abs(phi) * Math.hypot(p.data().feature(i, 0), c) <= trained.parameters()
                        .real(Param.CLIP_NORM) * (1 + 1e-12), "row " + i + " would be clipped");
            }
            for (int k = 0; k < rows.length; k++) {
                double mean = -(sum[0] * rows[k][0] + sum[1] * rows[k][1]);
                double sds = wantSign[k] * mean / (sigma * Math.hypot(rows[k][0], rows[k][1]));
                assertTrue(sds >= 12, "row " + k + " on " + (side ? "D'" : "D") + ": " + sds + " sd");
            }
        }
    }

    @Test
    void addRemoveCountsMoveOnlyThePositiveCountByOne() {
        AuditTarget t = CheckAudits.constantCheckAddRemove(4);
        int a = CheckAudits.sgdAnchors(4);
        assertEquals(1_500, a);
        DMatrixRMaj w = new DMatrixRMaj(new double[][] {{1}, {0}});
        long[][] want = {{a, a + 1, a}, {a, a + 1, a + 1}};
        for (int side = 0; side < 2; side++) {
            Problem p = problem(t, side == 1);
            ClassCounts c = ClassCounts.of(p.data());
            assertArrayEquals(want[side], new long[] {c.correct(w), c.rows() - c.positives(), c.positives()});
            assertEquals(2 * a + 2, p.shape().size(), "both planned for n = |D'|");
        }
        RunPlan p = plan(t);
        assertEquals(NeighboringRelation.ADD_OR_REMOVE_ONE, p.relation());
        assertEquals(1 / (CheckAudits.SHARE * 4), p.parameters().real(Param.CONSTANT_CHECK_SCALE), 1e-12,
                "the monotone scale");
    }

    /**
     * CI audits of the add/remove design ({@link OptimizerAuditsTest} runs the algorithm's first design):
     * 2000 runs, seed 1, α = 0.05 — the honest audit fails with probability ≤ 2α (ε_lower or the ledger
     * test; the seed is fixed, so the outcome is deterministic), the mutants must be flagged by ε_lower.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"none", "half-noise", "rnm-half-scale"})
    void addRemoveDesignPassesHonestlyAndCatchesTheMutants(String mutant) {
        Mutation m = Mutation.byName(mutant);
        AuditResult r = OptimizerAudit.run(Audits.design("constant-check", "added-row-tie").at(4), m,
                new OptimizerAudit.Settings(2000, 0.05, 1), OptimizerAudit.Progress.NONE);
        System.out.println(r);
        if (m == Mutation.NONE) {
            assertTrue(r.passed() && r.ledgerConsistent(), r::toString);
        } else {
            assertTrue(r.epsilonLower() > r.epsilon(), r::toString);
        }
    }

    @Test
    void addRemoveDesignPassesAtEpsilonOne() {
        AuditResult r = OptimizerAudit.run(Audits.design("constant-check", "added-row-tie").at(1), Mutation.NONE,
                new OptimizerAudit.Settings(1000, 0.05, 1), OptimizerAudit.Progress.NONE);
        System.out.println(r);
        assertTrue(r.passed() && r.ledgerConsistent(), r::toString);
    }

    @Test
    void aPairWithAnInterceptNeedsDirectionsOverItsCoordinate() {
        Dataset x = Canaries.record(1, 0, 1.0, 1, 1.0);
        Dataset y = Canaries.record(1, 0, 1.0, 0, 1.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new NeighbouringPair(x, y, 0,
                NeighboringRelation.REPLACE_ONE, Canaries.axis(1, 0, 1), y, "pair", 0.5));
        assertTrue(e.getMessage().startsWith("direction must be a 2 x k matrix"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new NeighbouringPair(x, y, 0,
                NeighboringRelation.REPLACE_ONE, Canaries.axis(2, 0, 1), y, "pair", -1));
        NeighbouringPair p = new NeighbouringPair(x, y, 0, NeighboringRelation.REPLACE_ONE, Canaries.axis(2, 1, 1), y,
                "pair", 0.5);
        assertEquals(2, p.problem(true, org.dpopt.loss.Losses.logistic(), org.dpopt.geometry.ConvexSets.unconstrained())
                .dimension());
    }
}
