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
     * is the release's sensitivity). Fast paths that never form the gradient vector: for a GLL
     * g = φ′(⟨w, x_i⟩, y_i) and ‖∇‖ = |g|·‖x_i‖; for the multinomial loss ‖∇‖ = ‖p − e_y‖·‖x_i‖ with the
     * k scores kept in the scratch vector. Other losses take the generic kernel.
     */
    @Override
    public int addClippedBatch(DMatrixRMaj w, Dataset data, int[] idx, int from, int to, double[] weights,
            double clip, DMatrixRMaj out, DMatrixRMaj scratch) {
        return addClippedRowByRow(w, data, idx, from, to, weights, clip, out, scratch);
    }

    /**
     * As the plain kernel; for a GLL batch, the labels and row norms are read ahead and the dots computed
     * four rows at a time with the buffers ({@link GllBatchKernel}; same bits).
     */
    @Override
    public int addClippedBatch(DMatrixRMaj w, Dataset data, int[] idx, int from, int to, double[] weights,
            double clip, DMatrixRMaj out, DMatrixRMaj scratch, BatchBuffers buffers) {
        if (loss instanceof GeneralizedLinearLoss gll) {
            return GllBatchKernel.addClipped(gll, w, data, idx, from, to, weights, clip, out, buffers);
        }
        return addClippedBatch(w, data, idx, from, to, weights, clip, out, scratch);
    }

    private int addClippedRowByRow(DMatrixRMaj w, Dataset data, int[] idx, int from, int to, double[] weights,
            double clip, DMatrixRMaj out, DMatrixRMaj scratch) {
        MultinomialLogisticLoss multi = loss instanceof MultinomialLogisticLoss m ? m : null;
        GeneralizedLinearLoss gll = loss instanceof GeneralizedLinearLoss g ? g : null;
        if (multi == null && gll == null) {
            return GradientOracle.super.addClippedBatch(w, data, idx, from, to, weights, clip, out, scratch);
        }
        int rows = data.size();
        int clipped = 0;
        // the k scores live in the scratch vector (k·d ≥ k entries); a caller's shorter scratch gets an array
        double[] scores = multi == null ? null
                : scratch.data.length >= multi.classes() ? scratch.data : new double[multi.classes()];
        for (int a = from; a < to; a++) {
            double omega = weights == null ? 1.0 : weights[a];
            int i = idx[a];
            if (omega == 0 || i >= rows) {
                continue;
            }
            boolean c = multi != null ? multi.addClippedGradient(w, data, i, omega, clip, out, scores)
                    : addClippedGll(gll, w, data, i, omega, clip, out);
            if (c) {
                clipped++;
            }
        }
        return clipped;
    }

    /** out ← out + ω·clip_C(φ′·x_i) with the norm |φ′|·‖x_i‖; true if clipped. */
    private static boolean addClippedGll(GeneralizedLinearLoss gll, DMatrixRMaj w, Dataset data, int i, double omega,
            double clip, DMatrixRMaj out) {
        double g = gll.derivative(data.dot(i, w), data.label(i));
        double norm = Math.abs(g) * data.rowNorm(i);
        double scale = 1.0;
        boolean clipped = false;
        if (norm > clip) {
            scale = clip / norm;
            clipped = true;
        }
        data.addScaledRow(i, g * scale * omega, out);
        return clipped;
    }
}
