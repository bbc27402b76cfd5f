package org.dpopt.optim.objpert;

import static org.dpopt.optim.objpert.ObjPertFixtures.HUGE;
import static org.dpopt.optim.objpert.ObjPertFixtures.assertRefused;
import static org.dpopt.optim.objpert.ObjPertFixtures.classification;
import static org.dpopt.optim.objpert.ObjPertFixtures.referenceSolve;
import static org.dpopt.optim.objpert.ObjPertFixtures.regression;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Loss;
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
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ObjectivePerturbationTest {

    @Nested
    class Contract extends PrivateOptimizerContract {
        @Override
        protected PrivateOptimizer optimizer() {
            return ObjectivePerturbation.builder().build();
        }

        @Override
        protected Problem problem() {
            return Problem.of(classification(300, 4, 31), Losses.logistic(), ConvexSets.l2Ball(2));
        }
    }

    @Test
    void exactRidgeMatchesClosedFormAsEpsilonGrows() {
        Dataset data = regression(400, 5, 1);
        double lambda = 0.05;
        Problem p = Problem.of(data, Losses.squared(1, 1));
        DMatrixRMaj w = ObjectivePerturbation.builder().lambda(lambda).build().optimize(p, HUGE, Rngs.seeded(3))
                .solution();
        // closed form (XᵀX/n + 2λI)⁻¹ Xᵀy/n, valid while every residual stays in the quadratic zone
        int n = data.size();
        DMatrixRMaj x = data.features();
        DMatrixRMaj a = new DMatrixRMaj(5, 5);
        CommonOps_DDRM.multTransA(x, x, a);
        CommonOps_DDRM.scale(1.0 / n, a);
        for (int j = 0; j < 5; j++) {
            a.add(j, j, 2 * lambda);
        }
        DMatrixRMaj y = new DMatrixRMaj(n, 1, true, data.labels());
        DMatrixRMaj rhs = new DMatrixRMaj(5, 1);
        CommonOps_DDRM.multTransA(x, y, rhs);
        CommonOps_DDRM.scale(1.0 / n, rhs);
        DMatrixRMaj expected = new DMatrixRMaj(5, 1);
        assertTrue(CommonOps_DDRM.solve(a, rhs, expected));
        for (int i = 0; i < n; i++) {
            assertTrue(Math.abs(data.dot(i, expected) - data.label(i)) < 2, "residual outside quadratic zone");
        }
        // noise effect ≤ ‖G‖/(2λn) with σ_G ≈ 2L/√(2ε) ≈ 3e-6: far below 1e-6
        assertEquals(0, Vectors.distance2(w, expected), 1e-6);
    }

    @Test
    void exactLogisticMatchesHighAccuracySolveUnconstrainedAndOnTheBall() {
        Dataset data = classification(300, 4, 5);
        double lambda = 0.01;
        for (Problem p : new Problem[] {Problem.of(data, Losses.logistic()),
            Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(0.5))}) {
            DMatrixRMaj w = ObjectivePerturbation.builder().lambda(lambda).build().optimize(p, HUGE, Rngs.seeded(7))
                    .solution();
            DMatrixRMaj ref = referenceSolve(p, lambda, 20000);
            assertEquals(0, Vectors.distance2(w, ref), 1e-6, "domain " + p.domain());
        }
        // on the small ball the constraint is active: the solution sits on the sphere
        Problem ball = Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(0.5));
        DMatrixRMaj w = ObjectivePerturbation.builder().lambda(lambda).build().optimize(ball, HUGE, Rngs.seeded(7))
                .solution();
        assertEquals(0.5, Vectors.norm2(w), 1e-9);
    }

    @Test
    void huberAndSmoothedHingeAreAccepted() {
        Dataset reg = regression(200, 3, 9);
        Dataset cls = classification(200, 3, 9);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        assertEquals(3, ObjectivePerturbation.builder().build()
                .optimize(Problem.of(reg, Losses.huber(1), ConvexSets.l2Ball(1)), b, Rngs.seeded(1)).solution().numRows);
        assertEquals(3, ObjectivePerturbation.builder().build()
                .optimize(Problem.of(cls, Losses.smoothedHinge(1), ConvexSets.l2Ball(1)), b, Rngs.seeded(1))
                .solution().numRows);
    }

    @Test
    void tightNoiseSolvesItsEquationAndNeverExceedsKst() {
        for (double eps : new double[] {0.1, 0.5, 1, 2, 5, 20}) {
            for (double delta : new double[] {1e-3, 1e-5, 1e-9}) {
                for (double ratio : new double[] {0, 0.1 * eps, 0.5 * eps}) {
                    double s = ObjectivePerturbationNoise.tightSigma(2, ratio, eps, delta);
                    double a = 2 / s;
                    double t = Math.sqrt(2 * Math.log(1 / delta));
                    assertEquals(eps - Math.log1p(ratio), t * a + a * a / 2, 1e-9 * eps);
                    assertTrue(s <= ObjectivePerturbationNoise.kstSigma(2, eps, delta), eps + " " + delta + " " + ratio);
                }
            }
        }
    }

    /** δ_M = δ − (1 + e^ε)p with the default p = 1e-3·δ/(1 + e^ε), i.e. 0.999δ. */
    static double deltaM(double eps, double delta) {
        return delta - ObjectivePerturbationNoise.failureCharge(eps,
                ObjectivePerturbationNoise.defaultFailureProbability(eps, delta));
    }

    @Test
    void plannedNoiseScalesFollowTheRules() {
        Problem p = Problem.of(classification(400, 5, 23), Losses.logistic(), ConvexSets.l2Ball(2));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        double dm = deltaM(1, 1e-5);
        assertEquals(0.999e-5, dm, 1e-20);
        double lambda = ObjectivePerturbationNoise.theoremLambda(1, 2, 400, 5, 1, dm);
        RunPlan tight = ObjectivePerturbation.builder().build().plan(p.shape(), b);
        RunPlan kst = ObjectivePerturbation.builder().noiseRule(ObjectivePerturbationNoise.Rule.KST12).build()
                .plan(p.shape(), b);
        assertEquals(lambda, tight.parameters().real(Param.L2), 1e-15);
        double sigma = ObjectivePerturbationNoise.tightSigma(2, 0.25 / (2 * 400 * lambda), 1, dm);
        assertEquals(sigma, tight.parameters().real(Param.OBJECTIVE_SIGMA), 1e-12);
        assertEquals("tight", tight.parameters().get(Param.NOISE_RULE));
        assertEquals(ObjectivePerturbationNoise.kstSigma(2, 1, dm), kst.parameters().real(Param.OBJECTIVE_SIGMA),
                1e-12);
        assertEquals(dm, tight.parameters().real(Param.PERTURBATION_DELTA), 0);
        // B = σ√(d + 2√(d x) + 2x), x = ln(1/p)
        double x = Math.log(1 / ObjectivePerturbationNoise.defaultFailureProbability(1, 1e-5));
        assertEquals(sigma * Math.sqrt(5 + 2 * Math.sqrt(5 * x) + 2 * x),
                tight.parameters().real(Param.NOISE_NORM_BOUND), 1e-12);
        assertEquals(1e-8, tight.parameters().real(Param.FAILURE_DELTA), 1e-20);
        assertEquals(1, ObjectivePerturbation.builder().build().optimize(p, b, Rngs.seeded(1)).steps());
    }

    @Test
    void ledgerIsTheTheoremsEventAndTheReportChargesTheFailure() {
        Problem p = Problem.of(classification(500, 5, 11), Losses.logistic(), ConvexSets.l2Ball(1));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        ObjectivePerturbation exact = ObjectivePerturbation.builder().build();
        OptimizationResult r = exact.optimize(p, b, Rngs.seeded(1));
        assertEquals(exact.privacyEvent(p, b), r.ledger());
        assertEquals(DpEvents.normalize(new EpsilonDeltaEvent(1, deltaM(1, 1e-5))), r.ledger());
        assertEquals(1, r.privacy().epsilon(), 0);
        assertEquals(1e-5, r.privacy().delta(), 0);
        assertTrue(r.privacy().notes().stream().anyMatch(x -> x.startsWith("delta includes (1 + e^eps) p")),
                r.privacy().toString());
    }

    @Test
    void anUncertifiedNewtonSolveFallsBackToTheCertifiedBackupSolve() {
        Problem p = Problem.of(classification(300, 4, 29), Losses.logistic(), ConvexSets.l2Ball(2));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        OptimizationResult newton = ObjectivePerturbation.builder().diagnostics(true).build()
                .optimize(p, b, Rngs.seeded(5));
        OptimizationResult backup = ObjectivePerturbation.builder().newtonSteps(1).diagnostics(true).build()
                .optimize(p, b, Rngs.seeded(5));
        assertEquals(0, newton.nonPrivateDiagnostics().get(Diagnostic.SOLVER_FALLBACK));
        assertEquals(1, backup.nonPrivateDiagnostics().get(Diagnostic.SOLVER_FALLBACK));
        assertTrue(backup.nonPrivateDiagnostics().get(Diagnostic.CERTIFIED_DISTANCE) <= 2e-9);
        // same seed, same G: both are certified within 2e-9 of the same minimizer
        assertEquals(0, Vectors.distance2(newton.solution(), backup.solution()), 4e-9);
        assertEquals(newton.privacy().toString(), backup.privacy().toString());
    }

    @Test
    void aFailedSolveReleasesADataIndependentPointAndNothingElse() {
        // two datasets of the same public shape; both solves forced to fail (1 Newton step, 1 backup step)
        Problem p1 = Problem.of(classification(300, 4, 41), Losses.logistic(), ConvexSets.l2Ball(2));
        Problem p2 = Problem.of(classification(300, 4, 43), Losses.logistic(), ConvexSets.l2Ball(2));
        assertEquals(p1.shape(), p2.shape());
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        ObjectivePerturbation failing = ObjectivePerturbation.builder().newtonSteps(1).backupStepsForTesting(1)
                .build();
        OptimizationResult r1 = failing.optimize(p1, b, Rngs.seeded(9));
        OptimizationResult r2 = failing.optimize(p2, b, Rngs.seeded(9));
        assertArrayEquals(new double[4], r1.solution().data, 0.0);
        assertArrayEquals(r1.solution().data, r2.solution().data, 0.0);
        assertEquals(r1.privacy().toString(), r2.privacy().toString());
        assertEquals(r1.parameters(), r2.parameters());
        assertEquals(r1.ledger(), r2.ledger());
        assertTrue(r1.nonPrivateDiagnostics().isEmpty());
        // the charge is in the plan and in the report
        assertEquals(ObjectivePerturbationNoise.failureCharge(1, ObjectivePerturbationNoise.defaultFailureProbability(
                1, 1e-5)), r1.parameters().real(Param.FAILURE_DELTA), 0);
        assertEquals(1e-5, r1.privacy().delta(), 0);
        assertEquals(1, r1.privacy().epsilon(), 0);
        assertTrue(r1.privacy().notes().stream().anyMatch(x -> x.startsWith("delta includes (1 + e^eps) p")));
        // which path was taken is visible only among the non-private diagnostics
        OptimizationResult d = failing.toBuilder().diagnostics(true).build().optimize(p1, b, Rngs.seeded(9));
        assertEquals(2, d.nonPrivateDiagnostics().get(Diagnostic.SOLVER_FALLBACK));
    }

    static final class NonConvexLogistic implements GeneralizedLinearLoss {
        private final GeneralizedLinearLoss base = Losses.logistic();

        @Override
        public String name() {
            return "nonconvex";
        }

        @Override
        public double phi(double u, double y) {
            return base.phi(u, y);
        }

        @Override
        public double derivative(double u, double y) {
            return base.derivative(u, y);
        }

        @Override
        public double secondDerivative(double u, double y) {
            return base.secondDerivative(u, y);
        }

        @Override
        public double scalarLipschitz() {
            return 1;
        }

        @Override
        public double scalarSmoothness() {
            return 0.25;
        }

        @Override
        public Convexity convexity() {
            return Convexity.NONCONVEX;
        }

        @Override
        public boolean isClassification() {
            return true;
        }
    }

    static Loss notGll() {
        return new Loss() {
            public String name() {
                return "not-glm";
            }

            public double value(DMatrixRMaj w, Dataset d, int i) {
                return 0;
            }

            public void gradient(DMatrixRMaj w, Dataset d, int i, DMatrixRMaj out) {
                Vectors.zero(out);
            }

            public double lipschitz(double r) {
                return 1;
            }

            public double smoothness(double r) {
                return 1;
            }

            public Convexity convexity() {
                return Convexity.CONVEX;
            }

            public boolean isClassification() {
                return true;
            }
        };
    }

    @Test
    void refusesEveryUnsupportedConfiguration() {
        Dataset data = classification(200, 3, 19);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        ObjectivePerturbation exact = ObjectivePerturbation.builder().build();
        assertRefused(exact, Problem.of(data, notGll(), ConvexSets.l2Ball(1)), b, "GeneralizedLinearLoss");
        assertRefused(exact, Problem.of(data, new NonConvexLogistic(), ConvexSets.l2Ball(1)), b, "CONVEX");
        assertRefused(exact, Problem.of(data, Losses.hinge(), ConvexSets.l2Ball(1)), b, "smoothness");
        // β = 0.25 > ε n λ = 1·200·1e-4 = 0.02: refused, naming the λ that would do
        assertRefused(ObjectivePerturbation.builder().lambda(1e-4).build(),
                Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(1)), b, "lambda >= 0.00125");
        ObjectivePerturbation.builder().lambda(2e-3).build().plan(Problem.of(data, Losses.logistic(),
                ConvexSets.l2Ball(1)).shape(), b);
        assertRefused(ObjectivePerturbation.builder().preset(Preset.PAPER).build(), Problem.of(data, Losses.logistic()),
                b, "domain radius M");
        // the practical preset takes lambda = 10 beta/(eps n) on R^d: 10 * 0.25/(1 * 200)
        RunParameters practical = exact.plan(Problem.of(data, Losses.logistic()).shape(), b).parameters();
        assertEquals("practical", practical.get(Param.PRESET));
        assertFalse(practical.has(Param.RADIUS));
        assertEquals(10 * 0.25 / 200, (double) practical.get(Param.L2), 1e-15);
        // a declared comparator radius M gives the theorem's lambda at M, at least beta/(eps n)
        RunParameters declared = ObjectivePerturbation.builder().comparatorRadius(20).build()
                .plan(Problem.of(data, Losses.logistic()).shape(), b).parameters();
        assertEquals(20.0, (double) declared.get(Param.RADIUS));
        assertTrue((double) declared.get(Param.L2) >= 0.25 / 200, "lambda " + declared.get(Param.L2));
        assertRefused(exact, Problem.of(data, Losses.logistic(), ConvexSets.box(-1, 1)), b, "centred L2 ball");
        assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.builder().lambda(0));
        assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.builder().tolerance(0));
        assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.builder().newtonSteps(0));
        assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.builder().noiseRule(null));
        assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.builder().failureProbability(1));
        assertRefused(ObjectivePerturbation.builder().failureProbability(0.5).build(),
                Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(1)), b, "(1 + e^eps) p");
        assertThrows(IllegalArgumentException.class, () -> exact.optimize(Problem.of(data, Losses.logistic(),
                ConvexSets.l2Ball(1)), b, null));
    }
}
