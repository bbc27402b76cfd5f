package org.dpopt.oracle;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Loss;
import org.dpopt.loss.MultinomialLogisticLoss;
import org.ejml.data.DMatrixRMaj;

/**
 * The exact per-example gradient of a loss, clipped to the declared Lipschitz bound L (a no-op for a
 * correct loss; a guard so that a wrong loss cannot break the sensitivity bound).
 *
 * <p>For a generalized linear loss φ(⟨w, x⟩, y) the batch kernel never forms the gradient vector: the
 * gradient is φ′·x, its norm |φ′|·‖x‖ comes from the precomputed row norm, so clipping is one multiply
 * and the clipped gradient is added to the sum with one axpy over the row.
 *
 * @param loss the loss
 * @param lipschitz the declared bound L (from the loss and the declared row-norm bound)
 */
public record ExactGradientOracle(Loss loss, double lipschitz) implements GradientOracle {

    /** Validates arguments. */
    public ExactGradientOracle {
        Checks.notNull("loss", loss);
        Checks.positiveOrInfinite("lipschitz", lipschitz);
    }

    /** The oracle for a loss on data with the given declared row-norm bound. */
    public static ExactGradientOracle of(Loss loss, double rowNormBound) {
        return new ExactGradientOracle(loss, loss.lipschitz(rowNormBound));
    }

    @Override
    public void gradient(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj out) {
        loss.gradient(w, data, i, out);
        Vectors.clipL2(out, lipschitz);
    }

    @Override
    public double normBound() {
        return lipschitz;
    }

    /**
     * The clip-and-sum kernel with the clip norm C (the oracle's own bound L is not applied on top: C
     * is the release's sensitivity). GLL fast path: g = φ′(⟨w, x_i⟩, y_i), ‖∇‖ = |g|·‖x_i‖.
     */
    @Override
    public int addClippedBatch(DMatrixRMaj w, Dataset data, int[] idx, int from, int to, double[] weights,
            double clip, DMatrixRMaj out, DMatrixRMaj scratch) {
        if (loss instanceof MultinomialLogisticLoss m) {
            return addClippedMultinomial(m, w, data, idx, from, to, weights, clip, out, scratch);
        }
        if (!(loss instanceof GeneralizedLinearLoss gll)) {
            return GradientOracle.super.addClippedBatch(w, data, idx, from, to, weights, clip, out, scratch);
        }
        int rows = data.size();
        int clipped = 0;
        for (int a = from; a < to; a++) {
            double omega = weights == null ? 1.0 : weights[a];
            int i = idx[a];
            if (omega == 0 || i >= rows) {
                continue;
            }
            double g = gll.derivative(data.dot(i, w), data.label(i));
            double norm = Math.abs(g) * data.rowNorm(i);
            double scale = 1.0;
            if (norm > clip) {
                scale = clip / norm;
                clipped++;
            }
            data.addScaledRow(i, g * scale * omega, out);
        }
        return clipped;
    }

    /**
     * The multinomial fast path: ‖(p − e_y) ⊗ x‖ = ‖p − e_y‖·‖x‖ from the row norm, the k scores kept in
     * the scratch vector (length k·d ≥ k), so the batch never forms a k·d gradient.
     */
    private static int addClippedMultinomial(MultinomialLogisticLoss m, DMatrixRMaj w, Dataset data, int[] idx,
            int from, int to, double[] weights, double clip, DMatrixRMaj out, DMatrixRMaj scratch) {
        int rows = data.size();
        int clipped = 0;
        for (int a = from; a < to; a++) {
            double omega = weights == null ? 1.0 : weights[a];
            int i = idx[a];
            if (omega == 0 || i >= rows) {
                continue;
            }
            if (m.addClippedGradient(w, data, i, omega, clip, out, scratch.data)) {
                clipped++;
            }
        }
        return clipped;
    }
}
