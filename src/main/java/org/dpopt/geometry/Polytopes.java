package org.dpopt.geometry;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/** The polytopes used by the Frank–Wolfe family: the ℓ1 ball, the simplex, an explicit vertex list. */
public final class Polytopes {
    private Polytopes() {
    }

    /** The ℓ1 ball {‖w‖₁ ≤ r} in ℝ^d: vertices ±r e_k (J = 2d; index 2k is +r e_k, 2k+1 is −r e_k). */
    public static Polytope l1Ball(int d, double r) {
        return new L1Ball(d, r);
    }

    /** The scaled simplex conv{r e_k} = {w ≥ 0, Σ w = r} in ℝ^d (J = d). */
    public static Polytope simplex(int d, double r) {
        return new Simplex(d, r);
    }

    /** conv of the given vertices (rows, copied). Projection is not available for a general list. */
    public static Polytope vertices(double[][] vertices) {
        return new VertexList(vertices);
    }

    private static void checkVector(DMatrixRMaj w, int d) {
        Checks.vector("w", w, d);
    }

    /**
     * Finds τ ≥ 0 with Σ max(a_k − τ, 0) = r for a_k = |w_k| (abs) or w_k, by Michelot's fixed-point
     * iteration: τ ← (Σ_{a_k &gt; τ} a_k − r) / #{a_k &gt; τ}, which increases monotonically to the exact
     * threshold from τ₀ = (Σ a − r)/d and stops when the active set is stable (≤ d rounds).
     */
    static double threshold(double[] w, int d, double r, boolean abs) {
        double sum = 0;
        for (int k = 0; k < d; k++) {
            sum += abs ? Math.abs(w[k]) : w[k];
        }
        double tau = (sum - r) / d;
        for (int round = 0; round <= d; round++) {
            double s = 0;
            int c = 0;
            for (int k = 0; k < d; k++) {
                double a = abs ? Math.abs(w[k]) : w[k];
                if (a > tau) {
                    s += a;
                    c++;
                }
            }
            double next = (s - r) / c;
            if (!(next > tau)) {
                return tau;
            }
            tau = next;
        }
        return tau;
    }

    /**
     * A polytope whose vertices are r·(±e_k) in ℝ^d: vertex j has the single non-zero entry
     * {@link #vertexEntry}(j) ∈ {r, −r} at coordinate {@link #vertexCoordinate}(j), so every vertex has
     * ℓ1 and ℓ2 norm r.
     */
    interface CoordinateVertices extends Polytope {
        int d();

        double r();

        /** The coordinate of vertex j's non-zero entry. */
        int vertexCoordinate(int j);

        /** Vertex j's non-zero entry (r or −r). */
        double vertexEntry(int j);

        @Override
        default int dimension() {
            return d();
        }

        @Override
        default void vertex(int j, DMatrixRMaj out) {
            checkVector(out, d());
            java.util.Arrays.fill(out.data, 0, d(), 0.0);
            out.data[vertexCoordinate(j)] = vertexEntry(j);
        }

        @Override
        default void moveToward(int j, double mu, DMatrixRMaj w) {
            double[] x = w.data;
            int d = d();
            for (int k = 0; k < d; k++) {
                x[k] *= 1 - mu;
            }
            x[vertexCoordinate(j)] += mu * vertexEntry(j);
        }

        @Override
        default double maxVertexNorm2() {
            return r();
        }

        @Override
        default double maxVertexNorm1() {
            return r();
        }

        @Override
        default double radius() {
            return r();
        }
    }

    /** The ℓ1 ball. */
    record L1Ball(int d, double r) implements CoordinateVertices {
        L1Ball {
            Checks.atLeastOne("d", d);
            Checks.positive("r", r);
        }

        @Override
        public int vertexCoordinate(int j) {
            return j >> 1;
        }

        @Override
        public double vertexEntry(int j) {
            return (j & 1) == 0 ? r : -r;
        }

        @Override
        public int vertexCount() {
            return 2 * d;
        }

        @Override
        public double score(int j, DMatrixRMaj g) {
            double v = r * g.data[j >> 1];
            return (j & 1) == 0 ? v : -v;
        }

        @Override
        public void scores(DMatrixRMaj g, double[] out) {
            for (int k = 0; k < d; k++) {
                double v = r * g.data[k];
                out[2 * k] = v;
                out[2 * k + 1] = -v;
            }
        }

        @Override
        public int lmo(DMatrixRMaj g) {
            // min over ±r g_k is −r max|g_k|: O(d), no scores buffer
            int best = 0;
            double bestAbs = -1;
            for (int k = 0; k < d; k++) {
                double a = Math.abs(g.data[k]);
                if (a > bestAbs) {
                    bestAbs = a;
                    best = k;
                }
            }
            return g.data[best] > 0 ? 2 * best + 1 : 2 * best;
        }

        @Override
        public double vertexDotRow(int j, Dataset data, int i) {
            double v = r * data.feature(i, j >> 1);
            return (j & 1) == 0 ? v : -v;
        }

        @Override
        public void project(DMatrixRMaj w) {
            checkVector(w, d);
            double[] x = w.data;
            double s = 0;
            for (int k = 0; k < d; k++) {
                s += Math.abs(x[k]);
            }
            if (s <= r) {
                return;
            }
            double tau = threshold(x, d, r, true);
            for (int k = 0; k < d; k++) {
                double a = Math.abs(x[k]) - tau;
                x[k] = a > 0 ? Math.copySign(a, x[k]) : 0.0;
            }
        }

        @Override
        public double diameter() {
            return 2 * r;
        }

        @Override
        public boolean contains(DMatrixRMaj w, double tol) {
            if (!isVector(w, d)) {
                return false;
            }
            double s = 0;
            for (int k = 0; k < d; k++) {
                s += Math.abs(w.data[k]);
            }
            return s <= r + tol;
        }
    }

    /** The scaled simplex. */
    record Simplex(int d, double r) implements CoordinateVertices {
        Simplex {
            Checks.atLeastOne("d", d);
            Checks.positive("r", r);
        }

        @Override
        public int vertexCoordinate(int j) {
            return j;
        }

        @Override
        public double vertexEntry(int j) {
            return r;
        }

        @Override
        public int vertexCount() {
            return d;
        }

        @Override
        public double score(int j, DMatrixRMaj g) {
            return r * g.data[j];
        }

        @Override
        public double vertexDotRow(int j, Dataset data, int i) {
            return r * data.feature(i, j);
        }

        @Override
        public void project(DMatrixRMaj w) {
            checkVector(w, d);
            double[] x = w.data;
            double tau = threshold(x, d, r, false);
            for (int k = 0; k < d; k++) {
                x[k] = Math.max(x[k] - tau, 0.0);
            }
        }

        @Override
        public double diameter() {
            return d == 1 ? 0 : r * Math.sqrt(2);
        }

        @Override
        public boolean contains(DMatrixRMaj w, double tol) {
            if (!isVector(w, d)) {
                return false;
            }
            double s = 0;
            for (int k = 0; k < d; k++) {
                if (w.data[k] < -tol) {
                    return false;
                }
                s += w.data[k];
            }
            return Math.abs(s - r) <= tol;
        }
    }

    /** conv of an explicit vertex list (row-major copy). */
    static final class VertexList implements Polytope {
        private final double[] v;
        private final int j;
        private final int d;
        private final double maxNorm2;
        private final double maxNorm1;
        private final double diameter;

        VertexList(double[][] vertices) {
            Checks.notNull("vertices", vertices);
            if (vertices.length < 1) {
                throw Checks.fail("number of vertices", "at least 1", 0);
            }
            this.j = vertices.length;
            this.d = Checks.notNull("vertex 0", vertices[0]).length;
            Checks.atLeastOne("vertex dimension", d);
            this.v = new double[j * d];
            double m2 = 0;
            double m1 = 0;
            for (int a = 0; a < j; a++) {
                Checks.notNull("vertex " + a, vertices[a]);
                if (vertices[a].length != d) {
                    throw Checks.fail("length of vertex " + a, "equal to " + d, vertices[a].length);
                }
                double s2 = 0;
                double s1 = 0;
                for (int k = 0; k < d; k++) {
                    double x = Checks.finite("vertex " + a + " entry " + k, vertices[a][k]);
                    v[a * d + k] = x;
                    s2 += x * x;
                    s1 += Math.abs(x);
                }
                m2 = Math.max(m2, Math.sqrt(s2));
                m1 = Math.max(m1, s1);
            }
            double diam = 0;
            for (int a = 0; a < j; a++) {
                for (int b = a + 1; b < j; b++) {
                    double s = 0;
                    for (int k = 0; k < d; k++) {
                        double t = v[a * d + k] - v[b * d + k];
                        s += t * t;
                    }
                    diam = Math.max(diam, Math.sqrt(s));
                }
            }
            this.maxNorm2 = m2;
            this.maxNorm1 = m1;
            this.diameter = diam;
        }

        @Override
        public int dimension() {
            return d;
        }

        @Override
        public int vertexCount() {
            return j;
        }

        @Override
        public void vertex(int a, DMatrixRMaj out) {
            checkVector(out, d);
            System.arraycopy(v, a * d, out.data, 0, d);
        }

        @Override
        public double score(int a, DMatrixRMaj g) {
            double s = 0;
            int off = a * d;
            for (int k = 0; k < d; k++) {
                s += v[off + k] * g.data[k];
            }
            return s;
        }

        @Override
        public double vertexDotRow(int a, Dataset data, int i) {
            double s = 0;
            int off = a * d;
            for (int k = 0; k < d; k++) {
                s += v[off + k] * data.feature(i, k);
            }
            return s;
        }

        @Override
        public void moveToward(int a, double mu, DMatrixRMaj w) {
            int off = a * d;
            for (int k = 0; k < d; k++) {
                w.data[k] = (1 - mu) * w.data[k] + mu * v[off + k];
            }
        }

        @Override
        public double maxVertexNorm2() {
            return maxNorm2;
        }

        @Override
        public double maxVertexNorm1() {
            return maxNorm1;
        }

        /** Not available: Euclidean projection onto a general polytope is a quadratic program. */
        @Override
        public void project(DMatrixRMaj w) {
            throw new UnsupportedOperationException("Euclidean projection onto an explicit vertex list is not "
                    + "implemented; use a projection-free (Frank-Wolfe) method");
        }

        @Override
        public double diameter() {
            return diameter;
        }

        @Override
        public double radius() {
            return maxNorm2;
        }

        /** Not available: membership in the hull of an explicit list is a linear program. */
        @Override
        public boolean contains(DMatrixRMaj w, double tol) {
            throw new UnsupportedOperationException("membership in an explicit vertex list is a linear program "
                    + "and is not implemented");
        }
    }

    private static boolean isVector(DMatrixRMaj w, int d) {
        return w.numCols == 1 && w.numRows == d;
    }
}
