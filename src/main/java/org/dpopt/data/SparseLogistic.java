package org.dpopt.data;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * A sparse high-dimensional logistic model for ℓ1-constrained experiments: w* has k non-zero entries
 * ±c (alternating signs) in the first k coordinates, so ‖w*‖₁ = kc; a row x has its first k entries
 * ±1/√(2k) (random signs) and d − k nuisance entries N(0, 1/(2(d − k))), rescaled into the unit ℓ2
 * ball (declared bound R = 1); P(y = +1 | x) = 1/(1 + e^{−⟨w*, x⟩}), y ∈ {−1, +1}. The population
 * minimizer of the logistic risk is w* itself, so with W the ℓ1 ball of radius kc the excess population
 * risk of ŵ is F(ŵ) − F(w*), estimated on a large fresh sample.
 */
public final class SparseLogistic {
    private SparseLogistic() {
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
        if (k < 1 || k > d) {
            throw Checks.fail("k", "in [1, " + d + "]", k);
        }
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        DMatrixRMaj x = new DMatrixRMaj(n, d);
        double[] y = new double[n];
        double a = 1 / Math.sqrt(2.0 * k);
        double sd = d > k ? 1 / Math.sqrt(2.0 * (d - k)) : 0;
        for (int i = 0; i < n; i++) {
            int off = i * d;
            double s = 0;
            for (int j = 0; j < d; j++) {
                double v = j < k ? (rng.nextBoolean() ? a : -a) : sd * g.sample();
                x.data[off + j] = v;
                s += v * v;
            }
            double norm = Math.sqrt(s);
            double f = norm > 1 ? 1 / (norm * (1 + 1e-12)) : 1;
            double u = 0;
            for (int j = 0; j < d; j++) {
                x.data[off + j] *= f;
                u += x.data[off + j] * wStar.data[j];
            }
            y[i] = rng.nextDouble() < 1 / (1 + Math.exp(-u)) ? 1 : -1;
        }
        return Dataset.of(x, y, 1.0);
    }
}
