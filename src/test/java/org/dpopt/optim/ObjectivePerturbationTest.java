package org.dpopt.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.accounting.ComposedEvent;
import org.dpopt.accounting.DpEvents;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.GaussianMechanism;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

class ObjectivePerturbationTest {

    static Dataset regression(int n, int d, long seed) {
        DMatrixRMaj w = Synthetic.plantedVector(d, 0.5, Rngs.seeded(seed));
        return Synthetic.linearRegression(n, w, 0.1, Rngs.seeded(seed + 1)).data();
    }

    static Dataset classification(int n, int d, long seed) {
        DMatrixRMaj w = Synthetic.plantedVector(d, 3, Rngs.seeded(seed));
        return Synthetic.logistic(n, w, Rngs.seeded(seed + 1)).data();
    }

    private static final PrivacyBudget HUGE = PrivacyBudget.of(1e12, 1e-5);

    @Test
    void exactRidgeMatchesClosedFormAsEpsilonGrows() {
        Dataset data = regression(400, 5, 1);
        double lambda = 0.05;
        Problem p = Problem.of(data, Losses.squared(1, 1));
        ObjectivePerturbation op = ObjectivePerturbation.builder().lambda(lambda).build();
        DMatrixRMaj w = op.optimize(p, HUGE, Rngs.seeded(3)).solution();
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

    /** Independent high-accuracy reference: projected gradient descent, step 1/(β + 2λ). */
    static DMatrixRMaj referenceSolve(Problem p, double lambda, int iters) {
        int d = p.dimension();
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        double step = 1 / (p.smoothness() + 2 * lambda);
        for (int t = 0; t < iters; t++) {
            p.fullGradient(w, g);
            Vectors.axpy(2 * lambda, w, g);
            Vectors.axpy(-step, g, w);
            p.domain().project(w);
        }
        return w;
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
                    double s = ObjectivePerturbation.tightSigma(2, ratio, eps, delta);
                    double a = 2 / s;
                    double t = Math.sqrt(2 * Math.log(1 / delta));
                    assertEquals(eps - Math.log1p(ratio), t * a + a * a / 2, 1e-9 * eps);
                    assertTrue(s <= ObjectivePerturbation.kstSigma(2, eps, delta), eps + " " + delta + " " + ratio);
                }
            }
        }
    }

    @Test
    void reportedNoiseScalesFollowTheRules() {
        Dataset data = classification(400, 5, 23);
        Problem p = Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(2));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        double lambda = ObjectivePerturbation.theoremLambda(1, 2, 400, 5, 1, 1e-5);
        OptimizationResult tight = ObjectivePerturbation.builder().build().optimize(p, b, Rngs.seeded(1));
        OptimizationResult kst = ObjectivePerturbation.builder().noiseRule(ObjectivePerturbation.NoiseRule.KST12).build()
                .optimize(p, b, Rngs.seeded(1));
        assertEquals(lambda, tight.legacyParameter("lambda"), 1e-15);
        assertEquals(ObjectivePerturbation.tightSigma(2, 0.25 / (2 * 400 * lambda), 1, 1e-5),
                tight.legacyParameter("sigma_G"), 1e-12);
        assertEquals(ObjectivePerturbation.kstSigma(2, 1, 1e-5), kst.legacyParameter("sigma_G"), 1e-12);
        // approximate variant: λ at (ε/2, δ/2), α = M²λ/n², σ_H = z(ε/2, δ/2)·2√(2α/λ)
        OptimizationResult s = ObjectivePerturbation.builder().variant(ObjectivePerturbation.Variant.SVRG).build()
                .optimize(p, b, Rngs.seeded(1));
        // the SVRG variant first sets aside the failure term 1e-3·δ, then splits the rest in two
        double half = 0.5 * 1e-5 * (1 - 1e-3);
        double lam2 = ObjectivePerturbation.theoremLambda(1, 2, 400, 5, 0.5, half);
        double alpha = 4 * lam2 / (400.0 * 400);
        assertEquals(lam2, s.legacyParameter("lambda"), 1e-15);
        assertEquals(alpha, s.legacyParameter("alpha"), 1e-20);
        assertEquals(GaussianMechanism.noiseMultiplier(0.5, half) * 2 * Math.sqrt(2 * alpha / lam2),
                s.legacyParameter("sigma_H"), 1e-12);
    }

    @Test
    void ledgerEqualsStatementForBothVariants() {
        Dataset data = classification(500, 5, 11);
        Problem p = Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(1));
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        ObjectivePerturbation exact = ObjectivePerturbation.builder().build();
        OptimizationResult r = exact.optimize(p, b, Rngs.seeded(1));
        assertEquals(DpEvents.normalize(exact.privacyEvent(p, b)), r.ledger());
        assertEquals(DpEvents.normalize(new EpsilonDeltaEvent(1, 1e-5)), r.ledger());
        assertEquals(1, r.privacy().epsilon(), 1e-12);

        ObjectivePerturbation svrg = ObjectivePerturbation.builder().variant(ObjectivePerturbation.Variant.SVRG).build();
        OptimizationResult s = svrg.optimize(p, b, Rngs.seeded(1));
        assertEquals(DpEvents.normalize(svrg.privacyEvent(p, b)), s.ledger());
        double half = 0.5 * (1e-5 - s.privacy().delta() * 1e-3); // failure term 1e-3·δ set aside first
        double z = GaussianMechanism.noiseMultiplier(0.5, half);
        assertEquals(DpEvents.normalize(ComposedEvent.of(new EpsilonDeltaEvent(0.5, half), new GaussianEvent(z))),
                s.ledger());
        assertEquals(1e-5, s.privacy().delta(), 0); // the report's δ includes the failure term
        // basic composition gives exactly the budget (up to the calibration's bracket)
        assertTrue(s.privacy().epsilon() <= 1 + 1e-12);
        assertEquals(1, s.privacy().epsilon(), 1e-6);
        assertTrue(s.legacyParameter("sigma_H") > 0);
        assertTrue(s.legacyDiagnostic("certified_suboptimality") <= s.legacyParameter("alpha"));
    }

    @Test
    void svrgAccuracyCloseToExactAtLargeEpsilon() {
        Dataset data = classification(800, 5, 13);
        Problem p = Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(2));
        double lambda = 0.005;
        DMatrixRMaj ref = referenceSolve(p, lambda, 20000);
        DMatrixRMaj w = ObjectivePerturbation.builder().variant(ObjectivePerturbation.Variant.SVRG).lambda(lambda)
                .build().optimize(p, HUGE, Rngs.seeded(2)).solution();
        // r = √(2α/λ) = √2·M/n, σ_H ≈ 2r·z(5e11): the output noise is negligible
        assertEquals(0, Vectors.distance2(w, ref), 1e-2 * 2 * Math.sqrt(2) / 800 + 1e-6);
    }

    @Test
    void uncertifiedSvrgThrowsInsteadOfReleasing() {
        Dataset data = classification(300, 4, 17);
        Problem p = Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(1));
        ObjectivePerturbation op = ObjectivePerturbation.builder().variant(ObjectivePerturbation.Variant.SVRG)
                .accuracy(1e-300).build();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> op.optimize(p, PrivacyBudget.of(1, 1e-5), Rngs.seeded(1)));
        assertTrue(e.getMessage().contains("nothing released"), e.getMessage());
        // an epoch count below the certified budget would make failing a data-dependent release: refused
        ObjectivePerturbation tooFew = ObjectivePerturbation.builder().variant(ObjectivePerturbation.Variant.SVRG)
                .epochs(1).build();
        IllegalArgumentException r = assertThrows(IllegalArgumentException.class,
                () -> tooFew.optimize(p, PrivacyBudget.of(1, 1e-5), Rngs.seeded(1)));
        assertTrue(r.getMessage().startsWith("epochs must be at least the budget"), r.getMessage());
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

    @Test
    void refusesEveryUnsupportedConfiguration() {
        Dataset data = classification(200, 3, 19);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-5);
        ObjectivePerturbation exact = ObjectivePerturbation.builder().build();
        ObjectivePerturbation approx = ObjectivePerturbation.builder().variant(ObjectivePerturbation.Variant.SVRG)
                .build();
        Loss notGll = new Loss() {
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
        assertRefused(exact, Problem.of(data, notGll, ConvexSets.l2Ball(1)), b, "GeneralizedLinearLoss");
        assertRefused(exact, Problem.of(data, new NonConvexLogistic(), ConvexSets.l2Ball(1)), b, "CONVEX");
        assertRefused(exact, Problem.of(data, Losses.hinge(), ConvexSets.l2Ball(1)), b, "smoothness");
        assertRefused(approx, Problem.of(data, Losses.absolute(), ConvexSets.l2Ball(1)), b, "smoothness");
        // β = 0.25 > ε n λ = 1·200·1e-4 = 0.02: refused, naming the λ that would do
        assertRefused(ObjectivePerturbation.builder().lambda(1e-4).build(),
                Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(1)), b, "lambda >= 0.00125");
        // the approximate variant needs β ≤ (ε/2) n λ: λ = 2e-3 passes for exact, fails for SVRG
        exact.plan(Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(1)), b);
        ObjectivePerturbation.builder().lambda(2e-3).build().plan(Problem.of(data, Losses.logistic(),
                ConvexSets.l2Ball(1)), b);
        assertRefused(ObjectivePerturbation.builder().variant(ObjectivePerturbation.Variant.SVRG).lambda(2e-3).build(),
                Problem.of(data, Losses.logistic(), ConvexSets.l2Ball(1)), b, "eps/2*n*lambda");
        assertRefused(exact, Problem.of(data, Losses.logistic()), b, "domain radius M");
        assertRefused(ObjectivePerturbation.builder().variant(ObjectivePerturbation.Variant.SVRG).lambda(0.1).build(),
                Problem.of(data, Losses.logistic()), b, "accuracy alpha");
        assertRefused(exact, Problem.of(data, Losses.logistic(), ConvexSets.box(-1, 1)), b, "centred L2 ball");
        assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.builder().lambda(0));
        assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.builder().accuracy(-1));
        assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.builder().tolerance(0));
        assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.builder().epochs(0));
        assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.builder().failureProbability(1));
        assertThrows(IllegalArgumentException.class, () -> ObjectivePerturbation.builder().variant(null));
        assertThrows(IllegalArgumentException.class, () -> exact.optimize(Problem.of(data, Losses.logistic(),
                ConvexSets.l2Ball(1)), b, null));
    }

    private static void assertRefused(ObjectivePerturbation op, Problem p, PrivacyBudget b, String fragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> op.privacyEvent(p, b));
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
        IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
                () -> op.optimize(p, b, Rngs.seeded(1)));
        assertEquals(e.getMessage(), e2.getMessage());
    }
}
