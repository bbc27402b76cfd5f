package org.dpopt.optim;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.SparseLogistic;
import org.dpopt.geometry.Polytopes;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;

/** Helpers shared by the Frank–Wolfe tests. */
final class FrankWolfeTests {
    private FrankWolfeTests() {
    }

    /** n rows of the sparse logistic model (5 active coordinates of size 2), logistic loss, ℓ1 ball of radius 10. */
    static Problem sparse(int n, int d, long seed) {
        UniformRandomProvider rng = Rngs.seeded(seed);
        Dataset data = SparseLogistic.sample(n, SparseLogistic.wStar(d, 5, 2.0), 5, rng);
        return Problem.of(data, Losses.logistic(), Polytopes.l1Ball(d, 10.0));
    }

    /** A deep copy of a matrix. */
    static double[][] copy(double[][] m) {
        double[][] c = new double[m.length][];
        for (int i = 0; i < m.length; i++) {
            c[i] = m[i].clone();
        }
        return c;
    }

    /**
     * Makes row {@code victim} of both neighbours the signed unit vector ±e_{variant/2} (sign by the parity
     * of variant) with the extreme labels −100 and +100, so every clamped derivative sits at ∓L₀.
     */
    static void extremeNeighbours(double[][] a, double[][] b, double[] ya, double[] yb, int victim, int variant) {
        java.util.Arrays.fill(a[victim], 0);
        java.util.Arrays.fill(b[victim], 0);
        a[victim][variant / 2] = (variant & 1) == 0 ? 1 : -1;
        b[victim][variant / 2] = (variant & 1) == 0 ? 1 : -1;
        ya[victim] = -100;
        yb[victim] = 100;
    }
}
