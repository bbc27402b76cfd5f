package org.dpopt.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The inner-GD Moreau oracle against the GLL reduction (an exact 1-D envelope) and its accuracy bound. */
class MoreauEnvelopeOracleTest {

    @Nested
    class SharedContract extends GradientOracleContract {
        @Override
        protected GradientOracle oracle() {
            return MoreauEnvelopeOracle.of(Losses.logistic(), 1, 2, 0.5, 4);
        }
    }

    @Nested
    class RunOracleContract extends GradientOracleContract {
        @Override
        protected GradientOracle oracle() {
            return MoreauEnvelopeOracle.of(Losses.hinge(), 1, 2, 0.5, 4).newOracle(4, 1.0);
        }
    }

    private static Dataset data(int n, int d, double r, UniformRandomProvider rng) {
        double[][] x = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                x[i][j] = rng.nextDouble() - 0.5;
                s += x[i][j] * x[i][j];
            }
            double f = r / Math.sqrt(s) * rng.nextDouble();
            for (int j = 0; j < d; j++) {
                x[i][j] *= f;
            }
            y[i] = rng.nextDouble() < 0.5 ? 1 : -1;
        }
        return Dataset.of(x, y, r);
    }

    @Test
    void innerStepFormula() {
        assertEquals(1599, MoreauEnvelopeOracle.innerStepsFor(1, 0.1));
        assertEquals(15, MoreauEnvelopeOracle.innerStepsFor(1, 1));
        assertEquals(1, MoreauEnvelopeOracle.innerStepsFor(1, 100));
        MoreauEnvelopeOracle o = MoreauEnvelopeOracle.of(Losses.hinge(), 1, 2, 0.1, 3);
        assertEquals(1599, o.innerSteps());
        assertEquals(1599, o.costPerCall());
        assertTrue(o.errorBound() <= 0.1);
    }

    /**
     * For f(w) = φ(⟨w, x⟩) the prox over ℝ^d moves along x only, so ∇f_β(w) = φ_{β/‖x‖²}′(⟨w,x⟩)·x — computed
     * independently by the bisection prox. The inner solve must be within its bound α.
     */
    @Test
    void agreesWithGllReductionWithinAccuracy() {
        UniformRandomProvider rng = Rngs.seeded(11);
        int d = 4;
        Dataset data = data(40, d, 1.0, rng);
        for (GeneralizedLinearLoss f : new GeneralizedLinearLoss[] {Losses.hinge(), Losses.absolute(), Losses.logistic()}) {
            for (double beta : new double[] {0.5, 5}) {
                double alpha = 0.05;
                MoreauEnvelopeOracle o = MoreauEnvelopeOracle.of(f, 1, beta, alpha, d);
                DMatrixRMaj w = new DMatrixRMaj(d, 1);
                DMatrixRMaj g = new DMatrixRMaj(d, 1);
                DMatrixRMaj ref = new DMatrixRMaj(d, 1);
                double worst = 0;
                for (int t = 0; t < 5; t++) {
                    for (int j = 0; j < d; j++) {
                        w.data[j] = 4 * (rng.nextDouble() - 0.5);
                    }
                    for (int i = 0; i < data.size(); i++) {
                        o.gradient(w, data, i, g);
                        double r2 = data.rowNorm(i) * data.rowNorm(i);
                        Vectors.zero(ref);
                        if (r2 > 0) {
                            GllBisectionProx p = GllBisectionProx.of(f, beta / r2, 1e-10);
                            data.addScaledRow(i, p.derivative(data.dot(i, w), data.label(i)), ref);
                        }
                        double err = Vectors.distance2(g, ref);
                        worst = Math.max(worst, err);
                        assertTrue(err <= alpha + 1e-9, f.name() + " beta=" + beta + " err=" + err);
                        assertTrue(Vectors.norm2(g) <= 1 + 1e-12);
                    }
                }
                // the bound is not vacuous: the worst error is a visible fraction of it, far below the norm
                assertTrue(worst < alpha, "worst " + worst);
            }
        }
    }

    @Test
    void moreInnerStepsAreMoreAccurate() {
        UniformRandomProvider rng = Rngs.seeded(12);
        int d = 3;
        Dataset data = data(30, d, 1.0, rng);
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        w.data[0] = 0.7;
        w.data[1] = -0.4;
        double[] errs = new double[3];
        double[] alphas = {0.5, 0.05, 0.005};
        for (int a = 0; a < 3; a++) {
            MoreauEnvelopeOracle o = MoreauEnvelopeOracle.of(Losses.absolute(), 1, 3, alphas[a], d);
            DMatrixRMaj g = new DMatrixRMaj(d, 1);
            DMatrixRMaj ref = new DMatrixRMaj(d, 1);
            for (int i = 0; i < data.size(); i++) {
                o.gradient(w, data, i, g);
                double r2 = data.rowNorm(i) * data.rowNorm(i);
                Vectors.zero(ref);
                GllBisectionProx p = GllBisectionProx.of(Losses.absolute(), 3 / r2, 1e-12);
                data.addScaledRow(i, p.derivative(data.dot(i, w), data.label(i)), ref);
                errs[a] = Math.max(errs[a], Vectors.distance2(g, ref));
            }
            assertTrue(errs[a] <= alphas[a]);
        }
        assertTrue(errs[2] < errs[0], java.util.Arrays.toString(errs));
    }

    @Test
    void proxPointWithinLOverBeta() {
        UniformRandomProvider rng = Rngs.seeded(13);
        int d = 3;
        Dataset data = data(10, d, 1.0, rng);
        MoreauEnvelopeOracle o = MoreauEnvelopeOracle.of(Losses.hinge(), 1, 2, 0.1, d);
        DMatrixRMaj w = Vectors.of(1, -2, 0.5);
        DMatrixRMaj v = new DMatrixRMaj(d, 1);
        for (int i = 0; i < data.size(); i++) {
            o.proxPoint(w, data, i, v);
            assertTrue(Vectors.distance2(v, w) <= 0.5 + 1e-12, "dist " + Vectors.distance2(v, w));
        }
    }

    /**
     * The envelope is an immutable loss shared by runs: a run's own oracle gives the same bits as the
     * thread-safe gradient and counts τ inner steps per call, and concurrent use does not interfere.
     */
    @Test
    void runOraclesMatchTheSharedLossAndKeepTheirOwnScratch() throws Exception {
        UniformRandomProvider rng = Rngs.seeded(14);
        int d = 3;
        Dataset data = data(20, d, 1.0, rng);
        MoreauEnvelopeOracle env = MoreauEnvelopeOracle.of(Losses.hinge(), 1, 2, 0.2, d);
        assertEquals("hinge-moreau", env.name());
        assertEquals(1.0, env.lipschitz(5.0));
        assertEquals(2.0, env.smoothness(5.0));
        assertEquals(Losses.hinge().value(Vectors.of(1, 2, 3), data, 4), env.value(Vectors.of(1, 2, 3), data, 4));
        DMatrixRMaj w = Vectors.of(0.3, -0.7, 0.1);
        double[][] expected = new double[data.size()][];
        for (int i = 0; i < data.size(); i++) {
            DMatrixRMaj g = new DMatrixRMaj(d, 1);
            env.gradient(w, data, i, g);
            expected[i] = g.data.clone();
        }
        SmoothedOracle run = env.newOracle(d, 1.0);
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        for (int i = 0; i < data.size(); i++) {
            run.gradient(w, data, i, g);
            org.junit.jupiter.api.Assertions.assertArrayEquals(expected[i], g.data, 0.0);
        }
        assertEquals((long) data.size() * env.innerSteps(), run.baseEvaluations());
        assertEquals(env.innerSteps(), run.costPerCall());
        assertEquals(1.0, run.normBound());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.List<java.util.concurrent.Future<Boolean>> fs = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                fs.add(pool.submit(() -> {
                    DMatrixRMaj out = new DMatrixRMaj(d, 1);
                    boolean same = true;
                    for (int rep = 0; rep < 50; rep++) {
                        for (int i = 0; i < data.size(); i++) {
                            env.gradient(w, data, i, out);
                            same &= java.util.Arrays.equals(expected[i], out.data);
                        }
                    }
                    return same;
                }));
            }
            for (java.util.concurrent.Future<Boolean> f : fs) {
                assertTrue(f.get(), "concurrent gradients of the shared envelope differ");
            }
        } finally {
            pool.shutdownNow();
        }
        assertThrows(IllegalArgumentException.class, () -> env.newOracle(d + 1, 1.0));
    }

    @Test
    void refusesBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> MoreauEnvelopeOracle.of(null, 1, 1, 0.1, 2));
        assertThrows(IllegalArgumentException.class, () -> MoreauEnvelopeOracle.of(Losses.hinge(), 0, 1, 0.1, 2));
        assertThrows(IllegalArgumentException.class,
                () -> MoreauEnvelopeOracle.of(Losses.hinge(), Double.POSITIVE_INFINITY, 1, 0.1, 2));
        assertThrows(IllegalArgumentException.class, () -> MoreauEnvelopeOracle.of(Losses.hinge(), 1, 0, 0.1, 2));
        assertThrows(IllegalArgumentException.class, () -> MoreauEnvelopeOracle.of(Losses.hinge(), 1, 1, 0, 2));
        assertThrows(IllegalArgumentException.class, () -> MoreauEnvelopeOracle.of(Losses.hinge(), 1, 1, 0.1, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MoreauEnvelopeOracle.of(Losses.hinge(), 1, 1, 1e-6, 2));
        assertTrue(e.getMessage().startsWith("inner steps 16L^2/alpha^2 must be at most"), e.getMessage());
        MoreauEnvelopeOracle o = MoreauEnvelopeOracle.of(Losses.hinge(), 1, 1, 0.5, 2);
        assertThrows(IllegalArgumentException.class, () -> o.proxPoint(new DMatrixRMaj(3, 1), null, 0, new DMatrixRMaj(2, 1)));
    }
}
