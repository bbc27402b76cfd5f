package org.dpopt.oracle;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.Loss;
import org.ejml.data.DMatrixRMaj;

/**
 * The exact per-example gradient of a loss, clipped to the declared Lipschitz bound L (a no-op for a
 * correct loss; a guard so that a wrong loss cannot break the sensitivity bound).
 *
 * @param loss the loss
 * @param lipschitz the declared bound L (from the loss and the declared row-norm bound)
 */
public record ExactGradientOracle(Loss loss, double lipschitz) implements GradientOracle {

    /** Validates arguments. */
    public ExactGradientOracle {
        Checks.notNull("loss", loss);
        Checks.positive("lipschitz", lipschitz);
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
}
