package org.dpopt.data;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * A sparse high-dimensional logistic model for ℓ1-constrained experiments: w* has k non-zero entries
 * ±c (alternating signs) in the first k coordinates, so ‖w*‖₁ = kc; a row x has its first k entries
 * ±1/√(2k) and its d − k nuisance entries ±1/√(2(d − k)) (independent random signs), so ‖x‖₂ = 1
 * exactly (declared bound R = 1) and, for d ≥ 2k, ‖x‖_∞ = 1/√(2k) ({@link #supNorm});
 * P(y = +1 | x) = 1/(1 + e^{−⟨w*, x⟩}), y ∈ {−1, +1}. The population
 * minimizer of the logistic risk is w* itself, so with W the ℓ1 ball of radius kc the excess population
 * risk of ŵ is F(ŵ) − F(w*), estimated on a large fresh sample.
 */
public final class SparseLogistic {
    private SparseLogistic() {
    }

    /** The public bound max(1/√(2k), 1/√(2(d − k))) on ‖x‖_∞ of every row. */
    public static double supNorm(int d, int k) {
        checkK(k, d);
        return Math.max(1 / Math.sqrt(2.0 * k), d > k ? 1 / Math.sqrt(2.0 * (d - k)) : 0);
    }

    /** The planted parameter: ±c on the first k coordinates. */
    public static DMatrixRMaj wStar(int d, int k, double c) {
        Checks.atLeastOne("k", k);
        if (k > d) {
            throw Checks.fail("k", "at most d = " + d, k);
        }
        Checks.positive("c", c);
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        for (int j = 0; j < k; j++) {
            w.data[j] = (j % 2 == 0) ? c : -c;
        }
        return w;
    }

    /** n rows from the model (d ≥ k ≥ 1). */
    public static Dataset sample(int n, DMatrixRMaj wStar, int k, UniformRandomProvider rng) {
        Checks.atLeastOne("n", n);
        Checks.notNull("rng", rng);
        int d = wStar.numRows;
        checkK(k, d);
        DMatrixRMaj x = new DMatrixRMaj(n, d);
        double[] y = new double[n];
        double[] row = new double[d];
        for (int i = 0; i < n; i++) {
            y[i] = row(row, wStar, k, rng);
            System.arraycopy(row, 0, x.data, i * d, d);
        }
        return Dataset.of(x, y, 1.0);
    }

    /**
     * The paired Monte Carlo estimate of the excess population risk F(w) − F(w*) under a GLL, on
     * {@code samples} fresh rows generated one at a time (no n×d storage; non-private diagnostic).
     */
    public static double excessRisk(org.dpopt.loss.GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj wStar,
            int k, int samples, UniformRandomProvider rng) {
        Checks.atLeastOne("samples", samples);
        int d = wStar.numRows;
        checkK(k, d);
        Checks.vector("w", w, d);
        double[] row = new double[d];
        double s = 0;
        for (int i = 0; i < samples; i++) {
            double y = row(row, wStar, k, rng);
            double u = 0;
            double us = 0;
            for (int j = 0; j < d; j++) {
                u += row[j] * w.data[j];
                us += row[j] * wStar.data[j];
            }
            s += loss.phi(u, y) - loss.phi(us, y);
        }
        return s / samples;
    }

    private static void checkK(int k, int d) {
        if (k < 1 || k > d) {
            throw Checks.fail("k", "in [1, " + d + "]", k);
        }
    }

    /** Fills one row and returns its label. */
    private static double row(double[] x, DMatrixRMaj wStar, int k, UniformRandomProvider rng) {
        int d = x.length;
        double a = 1 / Math.sqrt(2.0 * k);
        double sd = d > k ? 1 / Math.sqrt(2.0 * (d - k)) : 0;
        double s = 0;
        for (int j = 0; j < d; j++) {
            double v = j < k ? (rng.nextBoolean() ? a : -a) : (rng.nextBoolean() ? sd : -sd);
            x[j] = v;
            s += v * v;
        }
        double norm = Math.sqrt(s);
        double f = norm > 1 ? 1 / (norm * (1 + 1e-12)) : 1;
        double u = 0;
        for (int j = 0; j < d; j++) {
            x[j] *= f;
            u += x[j] * wStar.data[j];
        }
        return rng.nextDouble() < 1 / (1 + Math.exp(-u)) ? 1 : -1;
    }
}
