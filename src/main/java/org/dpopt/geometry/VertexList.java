package org.dpopt.geometry;

import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/** conv of an explicit vertex list (row-major copy), a polytope of the vertices' dimension only. */
final class VertexList implements Polytope {
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
        this.maxNorm2 = m2;
        this.maxNorm1 = m1;
        this.diameter = largestDistance();
    }

    private double largestDistance() {
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
        return diam;
    }

    /** A size of the list, asked in dimension dim: the list's own dimension d, else refused. */
    private <T> T inDimension(int dim, T size) {
        if (dim != d) {
            throw Checks.fail("dimension", "the vertex list's dimension " + d, dim);
        }
        return size;
    }

    @Override
    public int vertexCount(int dim) {
        return inDimension(dim, j);
    }

    @Override
    public void vertex(int a, DMatrixRMaj out) {
        Checks.vector("out", out, d);
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
    public void moveToward(int a, double mu, DMatrixRMaj w) {
        int off = a * d;
        for (int k = 0; k < d; k++) {
            w.data[k] = (1 - mu) * w.data[k] + mu * v[off + k];
        }
    }

    @Override
    public double maxVertexNorm2(int dim) {
        return inDimension(dim, maxNorm2);
    }

    @Override
    public double maxVertexNorm1(int dim) {
        return inDimension(dim, maxNorm1);
    }

    /** Not available: Euclidean projection onto a general polytope is a quadratic program. */
    @Override
    public void project(DMatrixRMaj w) {
        throw new UnsupportedOperationException("Euclidean projection onto an explicit vertex list is not "
                + "implemented; use a projection-free (Frank-Wolfe) method");
    }

    @Override
    public double diameter(int dim) {
        return inDimension(dim, diameter);
    }

    @Override
    public double radius(int dim) {
        return inDimension(dim, maxNorm2);
    }

    /** Not available: membership in the hull of an explicit list is a linear program. */
    @Override
    public boolean contains(DMatrixRMaj w, double tol) {
        throw new UnsupportedOperationException("membership in an explicit vertex list is a linear program "
                + "and is not implemented");
    }

    @Override
    public String toString() {
        return "hull of " + j + " vertices in dimension " + d;
    }
}
