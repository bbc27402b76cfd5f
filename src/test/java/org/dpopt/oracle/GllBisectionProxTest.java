package org.dpopt.oracle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Losses;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The bisection prox against hand-computed envelopes, closed forms, brute force, and envelope facts. */
class GllBisectionProxTest {

    @Nested
    class RunOracleContract extends GradientOracleContract {
        @Override
        protected GradientOracle oracle() {
            return GllBisectionProx.of(Losses.hinge(), 3, 1e-3).oracle(1.0);
        }
    }

    // provenance: envelopes of |v| and max(0, 1 − v) at β = 2 (L0 = 1), computed by hand from the closed
    // forms (a Huber function: quadratic within 1/β of the kink, the loss minus 1/(2β) beyond), and
    // the same closed forms are checked at random points in matchesClosedFormsToAccuracy
    private static final double[] U = {-1.2, 0.0, 0.3, 0.8, 1.2, 1.5};
    private static final double[][] ABS = { // env, prox, env'
        {0.95, -0.7, -1.0}, {0.0, 0.0, 0.0}, {0.09, 0.0, 0.6}, {0.55, 0.3, 1.0}, {0.95, 0.7, 1.0}, {1.25, 1.0, 1.0}};
    private static final double[][] HINGE = {
        {1.95, -0.7, -1.0}, {0.75, 0.5, -1.0}, {0.45, 0.8, -1.0}, {0.04, 1.0, -0.4}, {0.0, 1.2, 0.0}, {0.0, 1.5, 0.0}};

    @Test
    void halvingsMatchSpecCount() {
        assertEquals(21, GllBisectionProx.halvings(1, 1e-6)); // K = ceil(log2(2/1e-6)) = 21
        assertEquals(3, GllBisectionProx.halvings(1, 0.25)); // 2/0.25 = 8 exactly
        assertEquals(11, GllBisectionProx.halvings(1, 1.0 / 1024));
        GllBisectionProx p = GllBisectionProx.of(Losses.hinge(), 2, 1e-6);
        assertEquals(21, p.halvings());
        assertEquals(23, p.maxSubgradientCalls());
        assertTrue(p.derivativeErrorBound() <= 0.5e-6);
    }

    @Test
    void matchesSpecTableAbsoluteAndHinge() {
        double alpha = 1e-6;
        GllBisectionProx abs = GllBisectionProx.of(Losses.absolute(), 2, alpha);
        GllBisectionProx hinge = GllBisectionProx.of(Losses.hinge(), 2, alpha);
        double proxTol = 1.0 / (2 * Math.pow(2, 21));
        for (int k = 0; k < U.length; k++) {
            double u = U[k];
            assertEquals(ABS[k][1], abs.proxPoint(u, 0), proxTol + 1e-12, "abs prox at " + u);
            assertEquals(ABS[k][2], abs.derivative(u, 0), alpha / 2 + 1e-12, "abs env' at " + u);
            assertEquals(ABS[k][0], abs.phi(u, 0), 4 * alpha, "abs env at " + u);
            assertEquals(HINGE[k][1], hinge.proxPoint(u, 1), proxTol + 1e-12, "hinge prox at " + u);
            assertEquals(HINGE[k][2], hinge.derivative(u, 1), alpha / 2 + 1e-12, "hinge env' at " + u);
            assertEquals(HINGE[k][0], hinge.phi(u, 1), 4 * alpha, "hinge env at " + u);
        }
    }

    /** The same closed forms (and the squared loss) at random points and several β, α. */
    @Test
    void matchesClosedFormsToAccuracy() {
        UniformRandomProvider rng = Rngs.seeded(3);
        for (double beta : new double[] {0.3, 2, 57}) {
            for (double alpha : new double[] {1e-2, 1e-5, 1e-9}) {
                GllBisectionProx abs = GllBisectionProx.of(Losses.absolute(), beta, alpha);
                GllBisectionProx hinge = GllBisectionProx.of(Losses.hinge(), beta, alpha);
                GllBisectionProx sq = GllBisectionProx.of(Losses.squared(1, 1), beta, alpha);
                for (int t = 0; t < 300; t++) {
                    double u = 6 * rng.nextDouble() - 3;
                    double y = 2 * rng.nextDouble() - 1;
                    // absolute |u - y|: derivative clip(β(u − y), −1, 1)
                    double absD = Math.max(-1, Math.min(1, beta * (u - y)));
                    assertEquals(absD, abs.derivative(u, y), alpha / 2 + 1e-12);
                    // hinge with label s: env'(u) = −s·min(1, β(1 − s u)_+)
                    double s = y > 0 ? 1 : -1;
                    double hD = -s * Math.min(1, beta * Math.max(0, 1 - s * u));
                    assertEquals(hD, hinge.derivative(u, y), alpha / 2 + 1e-12);
                    // squared ½(u − y)² (L0 = 2 here): prox = (y + βu)/(1 + β) while |prox − y| ≤ 2
                    double px = (y + beta * u) / (1 + beta);
                    if (Math.abs(px - y) <= 2) {
                        assertEquals(beta * (u - y) / (1 + beta), sq.derivative(u, y), alpha / 2 * 2 + 1e-12);
                    }
                }
            }
        }
    }

    /** Brute-force 1-D minimization (ternary search on the strongly convex ψ) for smooth losses. */
    @Test
    void matchesBruteForceForOtherLosses() {
        UniformRandomProvider rng = Rngs.seeded(4);
        GeneralizedLinearLoss[] losses = {Losses.logistic(), Losses.huber(0.7), Losses.smoothedHinge(0.5)};
        double alpha = 1e-7;
        for (GeneralizedLinearLoss f : losses) {
            for (double beta : new double[] {0.5, 4, 100}) {
                GllBisectionProx p = GllBisectionProx.of(f, beta, alpha);
                for (int t = 0; t < 100; t++) {
                    double u = 8 * rng.nextDouble() - 4;
                    double y = rng.nextDouble() < 0.5 ? 1 : -1;
                    double v = bruteProx(f, beta, u, y);
                    // value-based search locates v only to ~1e-7 (flat minimum), hence the β·1e-7 slack
                    assertEquals(beta * (u - v), p.derivative(u, y), alpha / 2 + beta * 1e-7, f.name() + " at u=" + u);
                    double env = f.phi(v, y) + 0.5 * beta * (u - v) * (u - v);
                    assertTrue(p.phi(u, y) <= env + 1e-12, "bisection prox point at least as good as brute force");
                    assertEquals(env, p.phi(u, y), 1e-9, f.name() + " env at u=" + u);
                }
            }
        }
    }

    private static double bruteProx(GeneralizedLinearLoss f, double beta, double u, double y) {
        double r = f.scalarLipschitz() / beta;
        double lo = u - r;
        double hi = u + r;
        for (int it = 0; it < 300; it++) {
            double a = lo + (hi - lo) / 3;
            double b = hi - (hi - lo) / 3;
            double pa = f.phi(a, y) + 0.5 * beta * (a - u) * (a - u);
            double pb = f.phi(b, y) + 0.5 * beta * (b - u) * (b - u);
            if (pa < pb) {
                hi = b;
            } else {
                lo = a;
            }
        }
        return 0.5 * (lo + hi);
    }

    /** f_β ≤ f ≤ f_β + L²/(2β); |f_β′(u) − f_β′(v)| ≤ β|u − v|; |u − prox(u)| ≤ L/β. */
    @Test
    void envelopeProperties() {
        UniformRandomProvider rng = Rngs.seeded(5);
        double alpha = 1e-8;
        for (GeneralizedLinearLoss f : new GeneralizedLinearLoss[] {Losses.hinge(), Losses.absolute(), Losses.logistic(),
            Losses.squared(1, 1)}) {
            for (double beta : new double[] {0.2, 3, 40}) {
                GllBisectionProx p = GllBisectionProx.of(f, beta, alpha);
                double l = f.scalarLipschitz();
                double envErr = 2 * l * l / (beta * Math.pow(2, p.halvings())) + 1e-12; // phi() is an upper bound
                for (int t = 0; t < 300; t++) {
                    double u = 10 * rng.nextDouble() - 5;
                    double w = u + (rng.nextDouble() - 0.5) * rng.nextDouble();
                    double y = rng.nextDouble() < 0.5 ? 1 : -1;
                    double env = p.phi(u, y);
                    double fu = f.phi(u, y);
                    assertTrue(env - envErr <= fu + 1e-12, "f_beta <= f");
                    assertTrue(fu <= env + l * l / (2 * beta) + 1e-12, "f <= f_beta + L^2/(2 beta)");
                    assertTrue(Math.abs(p.derivative(u, y) - p.derivative(w, y)) <= beta * Math.abs(u - w) + alpha + 1e-12,
                            "derivative beta-Lipschitz");
                    assertTrue(Math.abs(u - p.proxPoint(u, y)) <= l / beta * (1 + 1e-12));
                    assertTrue(Math.abs(p.derivative(u, y)) <= l);
                }
            }
        }
    }

    @Test
    void costIsBoundedAndEarlyExitIsExact() {
        GllBisectionProx p = GllBisectionProx.of(Losses.hinge(), 2, 1e-6);
        GllBisectionProx.Oracle o = p.oracle(1.0);
        // far from the kink: φ is affine on the whole bracket, two calls, exact answer
        double d = o.derivative(-5, 1);
        assertEquals(-1.0, d, 0.0);
        assertEquals(2, o.subgradientCalls());
        double v = o.proxPoint(-5, 1);
        assertEquals(-4.5, v, 0.0);
        assertEquals(4, o.subgradientCalls());
        UniformRandomProvider rng = Rngs.seeded(6);
        for (int t = 0; t < 1000; t++) {
            long before = o.subgradientCalls();
            double u = 4 * rng.nextDouble() - 2;
            assertEquals(p.derivative(u, 1), o.derivative(u, 1), 0.0, "the oracle computes the loss's derivative");
            assertTrue(o.subgradientCalls() - before <= p.maxSubgradientCalls());
        }
        // prox at the kink (u in [1 − 1/β, 1]) needs the full bisection
        long before = o.subgradientCalls();
        o.derivative(0.8, 1);
        assertEquals(23, o.subgradientCalls() - before);
        assertEquals(o.subgradientCalls(), o.baseEvaluations());
        // a fresh oracle starts from zero: counters belong to a run, not to the (shared) loss
        assertEquals(0, p.oracle(1.0).subgradientCalls());
    }

    /** The oracle's clip-and-sum kernel is the GLL kernel on the prox: same bits as the exact oracle's. */
    @Test
    void kernelIsTheGllKernelAndCountsCalls() {
        UniformRandomProvider rng = Rngs.seeded(8);
        int n = 64;
        int d = 3;
        double[][] x = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = (rng.nextDouble() - 0.5);
            }
            y[i] = rng.nextDouble() < 0.5 ? 1 : -1;
        }
        Dataset data = Dataset.of(x, y, 1.0);
        GllBisectionProx p = GllBisectionProx.of(Losses.hinge(), 5, 1e-4);
        int[] idx = new int[n];
        double[] weights = new double[n];
        for (int i = 0; i < n; i++) {
            idx[i] = (7 * i) % n;
            weights[i] = i % 5 == 0 ? 0 : -0.3;
        }
        DMatrixRMaj w = Vectors.of(0.4, -1.2, 2.0);
        DMatrixRMaj a = new DMatrixRMaj(d, 1);
        DMatrixRMaj b = new DMatrixRMaj(d, 1);
        DMatrixRMaj scratch = new DMatrixRMaj(d, 1);
        GllBisectionProx.Oracle o = p.oracle(1.0);
        int ca = o.addClippedBatch(w, data, idx, 3, 50, weights, 0.2, a, scratch);
        int cb = new ExactGradientOracle(p, Double.POSITIVE_INFINITY).addClippedBatch(w, data, idx, 3, 50, weights,
                0.2, b, scratch);
        assertArrayEquals(b.data, a.data, 0.0);
        assertEquals(cb, ca);
        assertTrue(ca > 0, "some gradients were clipped at 0.2");
        long contributing = java.util.stream.IntStream.range(3, 50).filter(i -> weights[i] != 0).count();
        assertTrue(o.subgradientCalls() >= 2 * contributing && o.subgradientCalls() <= p.maxSubgradientCalls()
                * contributing, "calls " + o.subgradientCalls());
        // a one-example range may write into w itself: the derivative is read first
        DMatrixRMaj u = w.copy();
        DMatrixRMaj step = w.copy();
        o.addClippedBatch(u, data, idx, 7, 8, weights, 0.2, u, scratch);
        p.oracle(1.0).addClippedBatch(w, data, idx, 7, 8, weights, 0.2, step, scratch);
        assertArrayEquals(step.data, u.data, 0.0);
    }

    @Test
    void smoothedLossIsAGllWithDeclaredConstants() {
        GllBisectionProx p = GllBisectionProx.of(Losses.hinge(), 3, 1e-4);
        assertEquals("hinge-moreau", p.name());
        assertEquals(1.0, p.scalarLipschitz());
        assertEquals(3.0, p.scalarSmoothness());
        assertEquals(3.0 * 4, p.smoothness(2.0));
        assertEquals(2.0, p.lipschitz(2.0));
        assertTrue(p.isClassification());
        assertEquals(Loss.Convexity.CONVEX, p.convexity());
        // smoothing a smooth loss: β·β0/(β + β0)
        GllBisectionProx q = GllBisectionProx.of(Losses.logistic(), 0.25, 1e-4);
        assertEquals(0.125, q.scalarSmoothness(), 1e-15);
    }

    @Test
    void oracleNeverExceedsDeclaredNorm() {
        UniformRandomProvider rng = Rngs.seeded(7);
        int n = 200;
        int d = 5;
        double[][] x = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = rng.nextDouble() - 0.5;
            }
            y[i] = rng.nextDouble() < 0.5 ? 1 : -1;
        }
        Dataset data = Dataset.of(x, y, 2.0);
        GllBisectionProx p = GllBisectionProx.of(Losses.absolute(), 1000, 1e-3);
        GradientOracle o = p.oracle(2.0);
        assertEquals(2.0, o.normBound());
        assertEquals(p.maxSubgradientCalls(), o.costPerCall());
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        for (int t = 0; t < 50; t++) {
            for (int j = 0; j < d; j++) {
                w.data[j] = 100 * (rng.nextDouble() - 0.5);
            }
            for (int i = 0; i < n; i++) {
                o.gradient(w, data, i, g);
                assertTrue(Vectors.norm2(g) <= o.normBound() * (1 + 1e-12));
                double c = p.derivative(data.dot(i, w), y[i]);
                assertEquals(c * data.rowNorm(i), Vectors.norm2(g) * Math.signum(c), 1e-9);
            }
        }
    }

    @Test
    void refusesBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> GllBisectionProx.of(null, 1, 1e-3));
        assertThrows(IllegalArgumentException.class, () -> GllBisectionProx.of(Losses.hinge(), 0, 1e-3));
        assertThrows(IllegalArgumentException.class, () -> GllBisectionProx.of(Losses.hinge(), Double.NaN, 1e-3));
        assertThrows(IllegalArgumentException.class, () -> GllBisectionProx.of(Losses.hinge(), 1, 0));
        assertThrows(IllegalArgumentException.class, () -> GllBisectionProx.of(Losses.hinge(), 1, -1));
        GllBisectionProx p = GllBisectionProx.of(Losses.hinge(), 1, 1e-3);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GllBisectionProx.of(p, 1, 1e-3));
        assertTrue(e.getMessage().contains("must be not already smoothed"), e.getMessage());
        GeneralizedLinearLoss nonConvex = new GeneralizedLinearLoss() {
            @Override public double phi(double u, double y) { return Math.sin(u); }
            @Override public double derivative(double u, double y) { return Math.cos(u); }
            @Override public double secondDerivative(double u, double y) { return -Math.sin(u); }
            @Override public double scalarLipschitz() { return 1; }
            @Override public double scalarSmoothness() { return 1; }
            @Override public String name() { return "sin"; }
            @Override public Convexity convexity() { return Convexity.NONCONVEX; }
            @Override public boolean isClassification() { return false; }
        };
        e = assertThrows(IllegalArgumentException.class, () -> GllBisectionProx.of(nonConvex, 1, 1e-3));
        assertTrue(e.getMessage().startsWith("convexity of sin must be CONVEX"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> p.oracle(0));
    }
}
