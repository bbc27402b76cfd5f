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

class PolytopesTest {
    private static DMatrixRMaj random(int d, UniformRandomProvider rng) {
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        for (int k = 0; k < d; k++) {
            g.data[k] = rng.nextDouble() * 4 - 2;
        }
        return g;
    }

    /** Brute force over the explicit vertex list. */
    private static double bruteMin(Polytope p, DMatrixRMaj g) {
        DMatrixRMaj v = new DMatrixRMaj(g.numRows, 1);
        double best = Double.POSITIVE_INFINITY;
        for (int j = 0; j < p.vertexCount(g.numRows); j++) {
            p.vertex(j, v);
            best = Math.min(best, Vectors.dot(v, g));
        }
        return best;
    }

    @Test
    void lmoMatchesBruteForce() {
        UniformRandomProvider rng = Rngs.seeded(3);
        int d = 7;
        Polytope l1 = Polytopes.l1Ball(1.5);
        Polytope sx = Polytopes.simplex(2.0);
        double[][] verts = new double[9][d];
        for (double[] v : verts) {
            for (int k = 0; k < d; k++) {
                v[k] = rng.nextDouble() - 0.5;
            }
        }
        Polytope list = Polytopes.vertices(verts);
        double[] buf = new double[2 * d + 9];
        DMatrixRMaj v = new DMatrixRMaj(d, 1);
        for (int trial = 0; trial < 200; trial++) {
            DMatrixRMaj g = random(d, rng);
            for (Polytope p : new Polytope[] {l1, sx, list}) {
                int j = p.lmo(g);
                p.vertex(j, v);
                assertEquals(bruteMin(p, g), Vectors.dot(v, g), 1e-12);
                p.scores(g, buf);
                for (int a = 0; a < p.vertexCount(d); a++) {
                    p.vertex(a, v);
                    assertEquals(Vectors.dot(v, g), buf[a], 1e-12);
                }
                // FW gap ≥ 0 at a feasible point (a vertex)
                assertTrue(p.frankWolfeGap(g, v) >= -1e-12);
            }
        }
        // exact vertex-list entries
        l1.vertex(3, v);
        assertEquals(-1.5, v.data[1], 0);
        assertEquals(1.5, Norms.lp(v, 1), 0);
        assertEquals(1.5, l1.maxVertexNorm2(d), 0);
    }

    @Test
    void moveToward() {
        UniformRandomProvider rng = Rngs.seeded(5);
        int d = 5;
        DMatrixRMaj v = new DMatrixRMaj(d, 1);
        for (Polytope p : new Polytope[] {Polytopes.l1Ball(2), Polytopes.simplex(1),
                Polytopes.vertices(new double[][] {{1, 2, 3, 4, 5}, {0, 0, 0, 0, -1}})}) {
            for (int j = 0; j < p.vertexCount(d); j++) {
                p.vertex(j, v);
                DMatrixRMaj w = random(d, rng);
                DMatrixRMaj expected = w.copy();
                Vectors.scale(0.7, expected);
                Vectors.axpy(0.3, v, expected);
                p.moveToward(j, 0.3, w);
                for (int k = 0; k < d; k++) {
                    assertEquals(expected.data[k], w.data[k], 1e-14);
                }
            }
        }
    }

    @Test
    void coordinatePolytopesExistInEveryDimensionAndAVertexListInItsOwn() {
        Polytope l1 = Polytopes.l1Ball(2);
        Polytope sx = Polytopes.simplex(2);
        for (int d : new int[] {1, 3, 1000}) {
            assertEquals(2 * d, l1.vertexCount(d));
            assertEquals(d, sx.vertexCount(d));
            assertEquals(4, l1.diameter(d), 0);
            assertEquals(d == 1 ? 0 : 2 * Math.sqrt(2), sx.diameter(d), 0);
            assertEquals(2, l1.radius(d), 0);
            assertEquals(2, sx.maxVertexNorm1(d), 0);
            DMatrixRMaj v = new DMatrixRMaj(d, 1);
            l1.vertex(2 * d - 1, v);
            assertEquals(-2, v.data[d - 1], 0);
            assertTrue(l1.contains(v, 0) && !sx.contains(v, 1e-9));
        }
        assertEquals(Polytopes.l1Ball(2), l1, "sets with equal parameters are equal");
        Polytope list = Polytopes.vertices(new double[][] {{3, 4}, {0, 0}});
        assertEquals(2, list.vertexCount(2));
        assertEquals(5, list.diameter(2), 0);
        assertEquals(5, list.maxVertexNorm2(2), 0);
        assertEquals(7, list.maxVertexNorm1(2), 0);
        assertThrows(IllegalArgumentException.class, () -> list.vertexCount(3));
        assertThrows(IllegalArgumentException.class, () -> list.diameter(3));
        assertThrows(IllegalArgumentException.class, () -> list.radius(1));
        assertThrows(IllegalArgumentException.class, () -> list.vertex(0, new DMatrixRMaj(3, 1)));
        assertThrows(IllegalArgumentException.class, () -> l1.vertexCount(0));
    }

    @Test
    void projectionsAreOptimal() {
        // Optimality: for the projection P of w onto a convex W, ⟨w − P, u − P⟩ ≤ 0 for all u ∈ W; checked
        // at every vertex (enough since the inequality is linear in u).
        UniformRandomProvider rng = Rngs.seeded(9);
        int d = 6;
        DMatrixRMaj v = new DMatrixRMaj(d, 1);
        for (Polytope p : new Polytope[] {Polytopes.l1Ball(1.0), Polytopes.simplex(1.0)}) {
            for (int trial = 0; trial < 100; trial++) {
                DMatrixRMaj w = random(d, rng);
                Vectors.scale(trial % 2 == 0 ? 2 : 0.1, w);
                DMatrixRMaj proj = w.copy();
                p.project(proj);
                assertTrue(p.contains(proj, 1e-9), p + " " + proj);
                DMatrixRMaj diff = w.copy();
                Vectors.axpy(-1, proj, diff);
                for (int j = 0; j < p.vertexCount(d); j++) {
                    p.vertex(j, v);
                    Vectors.axpy(-1, proj, v);
                    assertTrue(Vectors.dot(diff, v) <= 1e-9, "obtuse-angle condition at vertex " + j);
                }
            }
        }
        DMatrixRMaj inside = Vectors.of(0.1, -0.2, 0, 0, 0, 0.3);
        DMatrixRMaj c = inside.copy();
        Polytopes.l1Ball(1).project(c);
        assertEquals(0, Vectors.distance2(c, inside), 0);
    }

    @Test
    void refusesBadInput() {
        assertThrows(IllegalArgumentException.class, () -> Polytopes.l1Ball(-1));
        assertThrows(IllegalArgumentException.class, () -> Polytopes.l1Ball(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> Polytopes.simplex(0));
        assertThrows(IllegalArgumentException.class, () -> Polytopes.vertices(new double[0][]));
        assertThrows(IllegalArgumentException.class, () -> Polytopes.vertices(new double[][] {{1, 2}, {1}}));
        assertThrows(IllegalArgumentException.class, () -> Polytopes.vertices(new double[][] {{1, Double.NaN}}));
        assertThrows(IllegalArgumentException.class, () -> Polytopes.l1Ball(1).project(new DMatrixRMaj(4, 2)));
        assertThrows(UnsupportedOperationException.class,
                () -> Polytopes.vertices(new double[][] {{1, 2}}).project(new DMatrixRMaj(2, 1)));
    }
}
