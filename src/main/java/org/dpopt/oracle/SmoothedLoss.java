package org.dpopt.oracle;

import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;

/**
 * A smoothed surrogate of a loss whose per-example gradient needs an inner solve (a Moreau envelope).
 * The loss itself is immutable and thread-safe, as every {@link Loss}; the scratch vectors and cost
 * counters of the inner solve belong to a run, which asks for its own oracle with
 * {@link #newOracle}.
 */
public interface SmoothedLoss extends Loss {

    /** The loss f being smoothed; convex (implementations refuse any other). */
    Loss base();

    /** Convex: the Moreau envelope of a convex loss is convex. */
    @Override
    default Convexity convexity() {
        return Convexity.CONVEX;
    }

    /** The smoothed loss reads labels as f does. */
    @Override
    default boolean isClassification() {
        return base().isClassification();
    }

    /**
     * A fresh oracle for one run on rows with ‖x‖₂ ≤ rowNormBound in dimension d.
     *
     * @param dimension d ≥ 1
     * @param rowNormBound R &gt; 0, the declared row-norm bound
     */
    SmoothedOracle newOracle(int dimension, double rowNormBound);

    /**
     * The oracle a run computes a loss's per-example gradients with: the smoothed loss's own
     * {@link #newOracle} for a {@code SmoothedLoss}, the exact gradient otherwise (with no bound of its
     * own: the clip-and-sum kernel clips at the release's clip norm).
     */
    static GradientOracle runOracle(Loss loss, int dimension, double rowNormBound) {
        Checks.notNull("loss", loss);
        if (loss instanceof SmoothedLoss s) {
            return s.newOracle(dimension, rowNormBound);
        }
        return new ExactGradientOracle(loss, Double.POSITIVE_INFINITY);
    }
}
