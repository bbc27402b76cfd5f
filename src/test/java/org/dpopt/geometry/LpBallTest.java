package org.dpopt.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.linalg.Norms;
import org.dpopt.linalg.Vectors;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class LpBallTest {

    @Test
    void lmoAttainsMinusRTimesDualNormAndBeatsRandomFeasiblePoints() {
        UniformRandomProvider rng = Rngs.seeded(1);
        int d = 8;
        for (double p : new double[] {1.1, 1.5, 2.0, 1 + 1 / Math.log(1000)}) {
            LpBall ball = new LpBall(p, 1.7);
            double q = Norms.dualExponent(p);
            for (int trial = 0; trial < 50; trial++) {
                DMatrixRMaj g = new DMatrixRMaj(d, 1);
                for (int k = 0; k < d; k++) {
                    g.data[k] = rng.nextDouble() * 2 - 1;
                }
                DMatrixRMaj v = new DMatrixRMaj(d, 1);
                ball.lmo(g, v);
                assertEquals(1.7, Norms.lp(v, p), 1e-9);
                double best = Vectors.dot(v, g);
                assertEquals(-1.7 * Norms.lp(g, q), best, 1e-9);
                // brute force: random boundary points never do better
                for (int s = 0; s < 200; s++) {
                    DMatrixRMaj u = new DMatrixRMaj(d, 1);
                    for (int k = 0; k < d; k++) {
                        u.data[k] = rng.nextDouble() * 2 - 1;
                    }
                    Vectors.scale(1.7 / Norms.lp(u, p), u);
                    assertTrue(Vectors.dot(u, g) >= best - 1e-12);
                }
            }
        }
    }

    @Test
    void largeExponentDoesNotOverflow() {
        // p = 1.01 ⇒ q = 101: |g|^{100} overflows without rescaling
        LpBall ball = new LpBall(1.01, 1);
        DMatrixRMaj g = Vectors.of(1e5, -2e5, 3);
        DMatrixRMaj v = new DMatrixRMaj(3, 1);
        ball.lmo(g, v);
        assertTrue(Double.isFinite(v.data[0]) && v.data[1] > 0.99, v.toString());
        DMatrixRMaj z = new DMatrixRMaj(3, 1);
        ball.lmo(z, v);
        assertEquals(0, Vectors.norm2(v), 0);
    }

    @Test
    void projectionSatisfiesOptimality() {
        UniformRandomProvider rng = Rngs.seeded(2);
        int d = 5;
        for (double p : new double[] {1.3, 2.0}) {
            LpBall ball = new LpBall(p, 1.0);
            for (int trial = 0; trial < 20; trial++) {
                DMatrixRMaj w = new DMatrixRMaj(d, 1);
                for (int k = 0; k < d; k++) {
                    w.data[k] = 3 * (rng.nextDouble() * 2 - 1);
                }
                DMatrixRMaj proj = w.copy();
                ball.project(proj);
                assertEquals(1.0, Norms.lp(proj, p), 1e-6);
                double dist = Vectors.distance2(w, proj);
                // no random feasible point is closer
                for (int s = 0; s < 300; s++) {
                    DMatrixRMaj u = new DMatrixRMaj(d, 1);
                    for (int k = 0; k < d; k++) {
                        u.data[k] = rng.nextDouble() * 2 - 1;
                    }
                    double n = Norms.lp(u, p);
                    if (n > 1) {
                        Vectors.scale(1 / n, u);
                    }
                    assertTrue(Vectors.distance2(w, u) >= dist - 1e-7);
                }
            }
        }
    }

    @Test
    void effectiveExponentAndRefusals() {
        LpBall effective = LpBall.effective(1.0, 1);
        assertEquals(1 + 1 / Math.log(1000), effective.p(1000), 1e-15);
        assertEquals(2.0, effective.p(2), 0); // 1 + 1/ln 2 > 2 is capped at 2
        assertEquals(1.5, LpBall.effective(1.5, 1).p(1000), 0); // p̃ = max(p, 1 + 1/ln d)
        assertEquals(1.5, new LpBall(1.5, 1).p(1000), 0);
        assertEquals(effective, LpBall.effective(1.0, 1));
        assertTrue(!effective.equals(new LpBall(1 + 1 / Math.log(1000), 1)), "a fixed exponent is another set");
        // the ℓ_p̃ ball contains the ℓ1 ball of the same radius: its vertices are on the boundary
        DMatrixRMaj e = Vectors.of(0, 1, 0, 0);
        assertTrue(effective.contains(e, 1e-12) && !effective.contains(Vectors.of(0.8, 0.8, 0, 0), 0));
        DMatrixRMaj v = new DMatrixRMaj(4, 1);
        effective.lmo(Vectors.of(1, -2, 0.5, 0), v);
        assertEquals(1, Norms.lp(v, 1 + 1 / Math.log(4)), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> LpBall.effective(0.5, 1));
        assertThrows(IllegalArgumentException.class, () -> new LpBall(1.0, 1));
        assertThrows(IllegalArgumentException.class, () -> new LpBall(2.5, 1));
        assertThrows(IllegalArgumentException.class, () -> new LpBall(1.5, 0));
        assertThrows(IllegalArgumentException.class, () -> Norms.dualMaximizer(Vectors.of(1), 3, Vectors.of(0)));
    }
}
