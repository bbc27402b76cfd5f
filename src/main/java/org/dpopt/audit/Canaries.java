package org.dpopt.audit;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;

/**
 * Canary records and the neighbouring pairs built around them.
 *
 * <p><b>Worst-case gradient canary</b> (for the DP-SGD family). For a generalized linear loss
 * φ(⟨w, x⟩, y) with |φ′| ≤ L₀, the record x_c = R·e_k with a label so large that the residual keeps one
 * sign (y_c = {@value #FAR_LABEL} for the regression losses: φ′ = −L₀ for every reachable w) has the
 * gradient −L₀R·e_k at every step, which clipping at C ≤ L₀R turns into exactly −C·e_k. If no other
 * record has a non-zero k-th feature, no other gradient has a component along e_k, so along
 * u = −e_k a release is pure noise without the canary and noise shifted by C when the canary is in the
 * batch — the dominating pair of the Poisson-subsampled Gaussian, the case the accountant's bound is
 * tight for. (A canary gradient inserted directly would be the same pair; through the data it also
 * exercises the loss, clipping and batching code.)
 *
 * <p><b>Input-space canary</b> (black-box). A classification record x_c = R·e_k, y_c = +1 in an unused
 * feature: a model that saw it has a larger weight on e_k and a smaller loss on it.
 */
public final class Canaries {
    private Canaries() {
    }

    /** The label of a gradient canary for regression losses: far beyond any reachable ⟨w, x⟩. */
    public static final double FAR_LABEL = 1e6;

    /**
     * Background records using only features [0, used): rows uniform in direction with norm uniform
     * in [0, R]; labels ±1 with P(+1) = 1/2 when {@code classification}, else N(0, 1) regression targets
     * plus 2⟨w*, x⟩ for w* = e_0.
     *
     * @param n number of rows
     * @param d dimension (features [used, d) are 0)
     * @param used features in use, 1 ≤ used ≤ d
     * @param rowNormBound R
     * @param seed fixes the records (public: the audit's data are not secret)
     */
    public static Dataset background(int n, int d, int used, double rowNormBound, boolean classification, long seed) {
        Checks.atLeastOne("n", n);
        Checks.atLeastOne("d", d);
        Checks.inRange("used features", used, 1, d);
        Checks.positive("rowNormBound", rowNormBound);
        UniformRandomProvider rng = Rngs.seeded(seed);
        double[][] rows = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double norm2 = 0;
            for (int j = 0; j < used; j++) {
                rows[i][j] = gaussian(rng);
                norm2 += rows[i][j] * rows[i][j];
            }
            double scale = norm2 > 0 ? rowNormBound * rng.nextDouble() / Math.sqrt(norm2) : 0;
            for (int j = 0; j < used; j++) {
                rows[i][j] *= scale;
            }
            y[i] = classification ? (rng.nextBoolean() ? 1 : -1) : 2 * rows[i][0] + gaussian(rng);
        }
        return Dataset.of(rows, y, rowNormBound);
    }

    private static double gaussian(UniformRandomProvider rng) {
        // Box–Muller (data generation only; never privacy noise)
        double u1 = 1.0 - rng.nextDouble();
        double u2 = rng.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    /** One record x = scale·e_k with label y, declared bound R. */
    public static Dataset record(int d, int k, double scale, double label, double rowNormBound) {
        Checks.inRange("canary feature", k, 0, d - 1);
        double[][] x = new double[1][d];
        x[0][k] = scale;
        return Dataset.of(x, new double[] {label}, rowNormBound);
    }

    /** The null record of the zero-out relation: x = 0 (every GLL gradient vanishes), label 0. */
    public static Dataset nullRecord(int d, double rowNormBound) {
        return Dataset.of(new double[1][d], new double[] {0}, rowNormBound);
    }

    /** The unit vector ±e_k. */
    public static DMatrixRMaj axis(int d, int k, double sign) {
        DMatrixRMaj u = new DMatrixRMaj(d, 1);
        u.set(k, 0, Math.signum(sign));
        return u;
    }

    /** The d×k matrix whose column j is sign·e_{from + j}: the directions of k canaries on their own axes. */
    public static DMatrixRMaj axes(int d, int from, int k, double sign) {
        Checks.atLeastOne("canaries", k);
        Checks.inRange("last canary feature", from + k - 1, 0, d - 1);
        DMatrixRMaj u = new DMatrixRMaj(d, k);
        for (int j = 0; j < k; j++) {
            u.set(from + j, j, Math.signum(sign));
        }
        return u;
    }

    /** k records x_j = scale·e_{from + j} with the same label: canary j on its own axis. */
    public static Dataset onAxes(int d, int from, int k, double scale, double label, double rowNormBound) {
        Checks.atLeastOne("canaries", k);
        Dataset out = record(d, from, scale, label, rowNormBound);
        for (int j = 1; j < k; j++) {
            out = concat(out, record(d, from + j, scale, label, rowNormBound));
        }
        return out;
    }

    /** The rows of a followed by those of b (same dimension and bound). */
    public static Dataset concat(Dataset a, Dataset b) {
        if (a.dimension() != b.dimension()) {
            throw Checks.fail("dimension", "equal to " + a.dimension(), b.dimension());
        }
        int d = a.dimension();
        double[][] rows = new double[a.size() + b.size()][d];
        double[] y = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            Dataset src = i < a.size() ? a : b;
            int r = i < a.size() ? i : i - a.size();
            for (int j = 0; j < d; j++) {
                rows[i][j] = src.feature(r, j);
            }
            y[i] = src.label(r);
        }
        return Dataset.of(rows, y, Math.max(a.rowNormBound(), b.rowNormBound()));
    }

    /** Add/remove-one: D = others, D′ = others ∪ {canary}, both planned for n = |D′|. */
    public static NeighbouringPair addRemove(Dataset others, Dataset canary, DMatrixRMaj direction, String what) {
        Dataset with = concat(others, canary);
        return new NeighbouringPair(others, with, with.size(), NeighboringRelation.ADD_OR_REMOVE_ONE, direction,
                canary, what + "; add/remove-one");
    }

    /**
     * Add/remove with k canaries: D = others, D′ = others ∪ canaries, both planned for n = |D′|; each
     * canary is its own add/remove-one trial (column j of {@code directions} is canary j's direction).
     */
    public static NeighbouringPair addRemoveEach(Dataset others, Dataset canaries, DMatrixRMaj directions,
            String what) {
        Dataset with = concat(others, canaries);
        return new NeighbouringPair(others, with, with.size(), NeighboringRelation.ADD_OR_REMOVE_ONE, directions,
                canaries, what + "; " + canaries.size() + " canaries, each its own add/remove-one trial");
    }

    /** Replace-one with k canaries: D = others ∪ replaced, D′ = others ∪ canaries (row j replaces row j). */
    public static NeighbouringPair replaceEach(Dataset others, Dataset replaced, Dataset canaries,
            DMatrixRMaj directions, String what) {
        return new NeighbouringPair(concat(others, replaced), concat(others, canaries), 0,
                NeighboringRelation.REPLACE_ONE, directions, canaries,
                what + "; " + canaries.size() + " canaries, each its own replace-one trial");
    }

    /** Zero-out: D = others ∪ {null record}, D′ = others ∪ {canary}. */
    public static NeighbouringPair zeroOut(Dataset others, Dataset canary, DMatrixRMaj direction, String what) {
        return new NeighbouringPair(concat(others, nullRecord(others.dimension(), others.rowNormBound())),
                concat(others, canary), 0, NeighboringRelation.ZERO_OUT, direction, canary,
                what + "; zero-out (a null record in D)");
    }

    /** Replace-one: D = others ∪ {replaced}, D′ = others ∪ {canary}. */
    public static NeighbouringPair replaceOne(Dataset others, Dataset replaced, Dataset canary,
            DMatrixRMaj direction, String what) {
        return new NeighbouringPair(concat(others, replaced), concat(others, canary), 0,
                NeighboringRelation.REPLACE_ONE, direction, canary, what + "; replace-one");
    }
}
