package org.dpopt.loss;

import org.dpopt.data.Dataset;
import org.dpopt.data.Labels;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * The multinomial logistic (softmax cross-entropy) loss of a k-class linear model W ∈ ℝ^{k×d}, stored
 * as the parameter vector w = (w_0, …, w_{k−1}) of k blocks of d:
 * <pre>
 *   u_c = ⟨w_c, x⟩,   p = softmax(u),   f(W; (x, y)) = log Σ_c e^{u_c} − u_y,   ∇f = (p − e_y) ⊗ x
 * </pre>
 * with labels y ∈ {0, …, k−1}.
 *
 * <p>Constants (public, from the declared row-norm bound R): the per-example gradient's norm is
 * closed form, ‖(p − e_y) ⊗ x‖₂ = ‖p − e_y‖₂·‖x‖₂, and ‖p − e_y‖₂² = (1 − p_y)² + Σ_{c≠y} p_c² ≤
 * 2(1 − p_y)² ≤ 2, so L = √2·R. The Hessian (diag(p) − ppᵀ) ⊗ xxᵀ has largest eigenvalue at most
 * ½‖x‖² (Böhning 1992, "Multinomial logistic regression algorithm", Ann. Inst. Statist. Math. 44),
 * so β = R²/2. Convex. Clipping a per-example gradient to C therefore costs one multiply given the
 * row norm, as for a generalized linear loss ({@link #addClippedGradient}); the clipped gradient of
 * the whole k×d model is one vector of norm ≤ C, so DP-SGD's accounting is unchanged.
 *
 * @param classes k ≥ 2, the number of classes (a public declaration)
 */
public record MultinomialLogisticLoss(int classes) implements Loss {

    /** Validates k ≥ 2. */
    public MultinomialLogisticLoss {
        Checks.atLeast("number of classes", classes, 2);
    }

    @Override
    public String name() {
        return "multinomial";
    }

    @Override
    public int outputs() {
        return classes;
    }

    @Override
    public double value(DMatrixRMaj w, Dataset data, int i) {
        int d = data.dimension();
        int y = label(data, i);
        double max = maxScore(w, data, i);
        return max + Math.log(partition(w, data, i, max)) - data.dot(i, w.data, y * d);
    }

    /** max_c u_c of row i. */
    private double maxScore(DMatrixRMaj w, Dataset data, int i) {
        int d = data.dimension();
        double max = Double.NEGATIVE_INFINITY;
        for (int c = 0; c < classes; c++) {
            max = Math.max(max, data.dot(i, w.data, c * d));
        }
        return max;
    }

    /** Σ_c e^{u_c − max} of row i. */
    private double partition(DMatrixRMaj w, Dataset data, int i, double max) {
        int d = data.dimension();
        double z = 0;
        for (int c = 0; c < classes; c++) {
            z += Math.exp(data.dot(i, w.data, c * d) - max);
        }
        return z;
    }

    /** Writes (p − e_y) ⊗ x_i into out (k·d). Recomputes the k scores instead of allocating. */
    @Override
    public void gradient(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj out) {
        int d = data.dimension();
        int y = label(data, i);
        double max = maxScore(w, data, i);
        double z = partition(w, data, i, max);
        java.util.Arrays.fill(out.data, 0, classes * d, 0.0);
        for (int c = 0; c < classes; c++) {
            double g = Math.exp(data.dot(i, w.data, c * d) - max) / z - (c == y ? 1 : 0);
            data.addScaledRow(i, g, out.data, c * d);
        }
    }

    /**
     * The clip-and-sum step for one row: out ← out + ω · clip_C((p − e_y) ⊗ x_i), with the norm
     * ‖p − e_y‖₂·‖x_i‖₂ from the precomputed row norm (one multiply). Allocation-free.
     * Modified: out (k·d), scores (length ≥ k, scratch). Not modified: w.
     *
     * @return true if the gradient was clipped
     */
    public boolean addClippedGradient(DMatrixRMaj w, Dataset data, int i, double omega, double clip,
            DMatrixRMaj out, double[] scores) {
        int d = data.dimension();
        int y = label(data, i);
        double max = Double.NEGATIVE_INFINITY;
        for (int c = 0; c < classes; c++) {
            scores[c] = data.dot(i, w.data, c * d);
            max = Math.max(max, scores[c]);
        }
        double z = 0;
        for (int c = 0; c < classes; c++) {
            scores[c] = Math.exp(scores[c] - max);
            z += scores[c];
        }
        double sq = 0;
        for (int c = 0; c < classes; c++) {
            scores[c] = scores[c] / z - (c == y ? 1 : 0);
            sq += scores[c] * scores[c];
        }
        double norm = Math.sqrt(sq) * data.rowNorm(i);
        double scale = norm > clip ? clip / norm : 1.0;
        for (int c = 0; c < classes; c++) {
            data.addScaledRow(i, omega * scale * scores[c], out.data, c * d);
        }
        return norm > clip;
    }

    /** L = √2·R. */
    @Override
    public double lipschitz(double rowNormBound) {
        return Math.sqrt(2) * rowNormBound;
    }

    /** β = R²/2. */
    @Override
    public double smoothness(double rowNormBound) {
        return 0.5 * rowNormBound * rowNormBound;
    }

    @Override
    public Convexity convexity() {
        return Convexity.CONVEX;
    }

    @Override
    public boolean isClassification() {
        return true;
    }

    @Override
    public void checkLabels(Dataset data, String source) {
        Labels.requireClasses(data, classes, source);
    }

    private int label(Dataset data, int i) {
        double y = data.label(i);
        int c = (int) y;
        if (c != y || c < 0 || c >= classes) {
            throw Checks.fail("label of row " + i, "an integer in 0.." + (classes - 1), y);
        }
        return c;
    }

    @Override
    public String toString() {
        return "multinomial(k=" + classes + ")";
    }
}
