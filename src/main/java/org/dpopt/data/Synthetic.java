package org.dpopt.data;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * Seeded synthetic problems with a known population optimum.
 *
 * <p>Features are drawn as x = r·u with u uniform on the unit sphere and r uniform on [0, 1]^{1/d}…
 * more simply: x ~ N(0, I/d) projected onto the unit ℓ2 ball, so rows satisfy ‖x‖ ≤ 1 and the
 * declared bound is 1. Projection is applied to x before the label is drawn, so the label model
 * holds exactly for the stored x and the planted w* is the population minimizer of the matching
 * loss (squared loss for {@link #linearRegression}, logistic loss for {@link #logistic}).
 */
public final class Synthetic {
    private Synthetic() {
    }

    /** A generated dataset with its planted parameter. */
    public record Planted(Dataset data, DMatrixRMaj wStar) {
    }

    /** A planted vector with unit-sphere direction and the given norm. */
    public static DMatrixRMaj plantedVector(int d, double norm, UniformRandomProvider rng) {
        Checks.atLeastOne("d", d);
        Checks.nonNegative("norm", norm);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        double s = 0;
        for (int j = 0; j < d; j++) {
            w.data[j] = g.sample();
            s += w.data[j] * w.data[j];
        }
        double f = norm / Math.sqrt(s);
        for (int j = 0; j < d; j++) {
            w.data[j] *= f;
        }
        return w;
    }

    private static double[][] features(int n, int d, UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            gaussianRow(x[i], g);
        }
        return x;
    }

    /** One row: N(0, I/d) projected onto the unit ball (scaled just inside it when it falls outside). */
    private static void gaussianRow(double[] row, ZigguratSampler.NormalizedGaussian g) {
        int d = row.length;
        double sd = 1.0 / Math.sqrt(d);
        double s = 0;
        for (int j = 0; j < d; j++) {
            row[j] = g.sample() * sd;
            s += row[j] * row[j];
        }
        double norm = Math.sqrt(s);
        if (norm > 1) {
            double f = 1.0 / (norm * (1 + 1e-12));
            for (int j = 0; j < d; j++) {
                row[j] *= f;
            }
        }
    }

    /**
     * The law of {@link #logistic} drawn row by row (features, then the row's label) straight into the
     * dataset's own storage: no n×d temporary, so the process holds one copy of the rows. The same
     * generator gives other draws than {@link #logistic}, which draws all features first.
     */
    public static Dataset logisticInPlace(int n, DMatrixRMaj wStar, UniformRandomProvider rng) {
        Checks.atLeastOne("n", n);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        return Dataset.generate(n, wStar.numRows, 1.0, (i, row) -> {
            gaussianRow(row, g);
            return rng.nextDouble() < 1.0 / (1.0 + Math.exp(-dot(row, wStar))) ? 1 : -1;
        });
    }

    private static double dot(double[] a, DMatrixRMaj w) {
        double s = 0;
        for (int j = 0; j < a.length; j++) {
            s += a[j] * w.data[j];
        }
        return s;
    }

    /** y = ⟨w*, x⟩ + N(0, noise²). Population optimum of the squared loss: w*. */
    public static Planted linearRegression(int n, DMatrixRMaj wStar, double noise, UniformRandomProvider rng) {
        Checks.atLeastOne("n", n);
        Checks.nonNegative("noise", noise);
        int d = wStar.numRows;
        double[][] x = features(n, d, rng);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = dot(x[i], wStar) + noise * g.sample();
        }
        return new Planted(Dataset.of(x, y, 1.0), wStar.copy());
    }

    /**
     * Labels y ∈ {−1, +1} with P(y = +1 | x) = 1/(1 + e^{−⟨w*, x⟩}). Population optimum of the
     * logistic loss (unconstrained): w*.
     */
    public static Planted logistic(int n, DMatrixRMaj wStar, UniformRandomProvider rng) {
        Checks.atLeastOne("n", n);
        int d = wStar.numRows;
        double[][] x = features(n, d, rng);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double p = 1.0 / (1.0 + Math.exp(-dot(x[i], wStar)));
            y[i] = rng.nextDouble() < p ? 1 : -1;
        }
        return new Planted(Dataset.of(x, y, 1.0), wStar.copy());
    }

    /**
     * Noiseless-margin classification: y = sign(⟨w*, x⟩) with each label flipped with probability
     * {@code flip}. Useful for hinge-loss (SVM-like) problems.
     */
    public static Planted linearlySeparable(int n, DMatrixRMaj wStar, double flip, UniformRandomProvider rng) {
        Checks.atLeastOne("n", n);
        Checks.inRange("flip", flip, 0, 0.5);
        int d = wStar.numRows;
        double[][] x = features(n, d, rng);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double s = dot(x[i], wStar) >= 0 ? 1 : -1;
            y[i] = rng.nextDouble() < flip ? -s : s;
        }
        return new Planted(Dataset.of(x, y, 1.0), wStar.copy());
    }

    /**
     * Robust phase retrieval with a planted signal: y = ⟨w*, x⟩² for clean rows; with probability
     * {@code corruption} a row's label is replaced by an independent outlier 3|g|/d, g ~ N(0, 1) (the
     * typical clean label is ‖w*‖²/d). For corruption below a constant fraction the population risk of
     * |⟨w, x⟩² − y| is minimized exactly at ±w* (Duchi and Ruan, arXiv:1705.02356); recovery is
     * measured by min(‖w − w*‖, ‖w + w*‖). Rows satisfy ‖x‖₂ ≤ 1 (declared bound 1).
     *
     * @param n rows
     * @param wStar the planted signal (copied)
     * @param corruption outlier probability in [0, 0.5)
     * @param rng the source of randomness
     */
    public static Planted phaseRetrieval(int n, DMatrixRMaj wStar, double corruption, UniformRandomProvider rng) {
        Checks.atLeastOne("n", n);
        Checks.notNull("wStar", wStar);
        Checks.inRange("corruption", corruption, 0, 0.5);
        if (!(corruption < 0.5)) {
            throw Checks.fail("corruption", "below 0.5", corruption);
        }
        int d = wStar.numRows;
        double[][] x = features(n, d, rng);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double u = dot(x[i], wStar);
            y[i] = rng.nextDouble() < corruption ? 3 * Math.abs(g.sample()) / d : u * u;
        }
        return new Planted(Dataset.of(x, y, 1.0), wStar.copy());
    }
}
