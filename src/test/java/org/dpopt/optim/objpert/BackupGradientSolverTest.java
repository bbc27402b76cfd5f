package org.dpopt.optim.objpert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.noise.Rngs;
import org.dpopt.oracle.DatasetPasses;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class BackupGradientSolverTest {

    /**
     * The public step count K certifies whenever ‖G‖ ≤ B: the linear term is set to norm exactly B/n (the
     * worst case the bound allows) in a random direction, for smooth and piecewise-quadratic losses, on
     * the whole space and on an active and an inactive ball. The result must be certified and truly within
     * τ of an independent high-accuracy solve.
     */
    @Test
    void publicStepCountCertifiesAtTheNoiseBound() {
        Dataset cls = ObjPertFixtures.classification(300, 4, 61);
        Dataset reg = ObjPertFixtures.regression(300, 4, 61);
        Object[][] cases = {
            {cls, Losses.logistic()}, {cls, Losses.smoothedHinge(1)}, {reg, Losses.huber(1)}, {reg, Losses.squared(1, 1)}};
        UniformRandomProvider rng = Rngs.seeded(62);
        for (Object[] c : cases) {
            Dataset data = (Dataset) c[0];
            GeneralizedLinearLoss loss = (GeneralizedLinearLoss) c[1];
            for (ConvexSet dom : new ConvexSet[] {ConvexSets.unconstrained(), ConvexSets.l2Ball(0.3),
                ConvexSets.l2Ball(20)}) {
                for (double lambda : new double[] {0.05, 0.005}) {
                    check(data, loss, dom, lambda, rng);
                }
            }
        }
    }

    private static void check(Dataset data, GeneralizedLinearLoss loss, ConvexSet dom, double lambda,
            UniformRandomProvider rng) {
        int d = data.dimension();
        double lip = loss.lipschitz(data.rowNormBound());
        double beta = loss.smoothness(data.rowNormBound());
        double bigB = 50; // a bound on ‖G‖ (σ_G ≈ 10 at d = 4 gives B ≈ 50 at p = 1e-8)
        double bNorm = bigB / data.size();
        DMatrixRMaj b = new DMatrixRMaj(d, 1);
        for (int j = 0; j < d; j++) {
            b.data[j] = rng.nextDouble() - 0.5;
        }
        Vectors.scale(bNorm / Vectors.norm2(b), b);
        PerturbedObjective obj = new PerturbedObjective(new DatasetPasses(data), loss, dom, b, lambda, lip, beta);
        double target = 1e-9 * Math.max(1, Double.isFinite(dom.radius(d)) ? dom.radius(d) : 1);
        int k = BackupGradientSolver.steps(lambda, beta, lip, bNorm, dom.radius(d), target);
        BackupGradientSolver.Outcome o = BackupGradientSolver.solve(obj, k, target);
        String what = loss.name() + " " + dom + " lambda " + lambda + " K " + k;
        assertTrue(o.certified(), what + ": distance " + o.distance());
        DMatrixRMaj ref = reference(obj, 40 * k);
        assertTrue(Vectors.distance2(o.w(), ref) <= target, what);
    }

    /** Projected gradient with step 1/L_J for many more steps than K. */
    private static DMatrixRMaj reference(PerturbedObjective obj, int iters) {
        int d = obj.dimension();
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        double step = 1 / (obj.smoothness() + 2 * obj.lambda());
        for (int t = 0; t < iters; t++) {
            obj.gradient(w, g);
            Vectors.axpy(-step, g, w);
            obj.domain().project(w);
        }
        return w;
    }

    @Test
    void stepCountFollowsTheContractionRate() {
        // κ = (0.25 + 0.1)/0.1 = 3.5, c = 2.5/4.5; K = ⌈ln(6κ·D₀/τ)/ln(1/c)⌉ with D₀ = min(M, (L + B/n)/μ)
        double kappa = 3.5;
        double c = 2.5 / 4.5;
        double d0 = Math.min(2, 1.1 / 0.1);
        int expected = (int) Math.ceil(Math.log(6 * kappa * d0 / 1e-9) / Math.log(1 / c));
        assertEquals(expected, BackupGradientSolver.steps(0.05, 0.25, 1, 0.1, 2, 1e-9));
        assertEquals(1, BackupGradientSolver.steps(0.05, 0, 1, 0.1, 2, 1e-9), "kappa = 1: one exact step");
    }
}
