package org.dpopt.geometry;

import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * The polytopes used by the Frank–Wolfe family: the ℓ1 ball and the simplex (in every dimension) and
 * an explicit vertex list (in its own dimension).
 */
public final class Polytopes {
    private Polytopes() {
    }

    /**
     * The ℓ1 ball {‖w‖₁ ≤ r} in every dimension d: vertices ±r e_k (J = 2d; index 2k is +r e_k, 2k+1 is
     * −r e_k).
     */
    public static Polytope l1Ball(double r) {
        return new L1Ball(r);
    }

    /** The scaled simplex conv{r e_k} = {w ≥ 0, Σ w = r} in every dimension d (J = d). */
    public static Polytope simplex(double r) {
        return new ScaledSimplex(r);
    }

    /**
     * conv of the given vertices (rows, copied), a polytope of the vertices' dimension only. Projection
     * is not available for a general list.
     */
    public static Polytope vertices(double[][] vertices) {
        return new VertexList(vertices);
    }

    /** The length of a column vector w, which must be at least 1. */
    static int length(DMatrixRMaj w) {
        if (w.numCols != 1 || w.numRows < 1) {
            throw Checks.fail("w", "a column vector (d x 1, d >= 1)", w.numRows + "x" + w.numCols);
        }
        return w.numRows;
    }

    /** Σ|w_k| (abs) or Σ w_k over the entries of w, in order. */
    static double entrySum(DMatrixRMaj w, boolean abs) {
        double s = 0;
        for (int k = 0; k < w.numRows * w.numCols; k++) {
            s += abs ? Math.abs(w.data[k]) : w.data[k];
        }
        return s;
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
}
