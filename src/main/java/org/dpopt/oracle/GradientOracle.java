package org.dpopt.oracle;

import org.dpopt.data.Dataset;
import org.ejml.data.DMatrixRMaj;

/**
 * Per-example gradients (exact, or of a smoothed surrogate) with a <em>declared</em> norm bound.
 *
 * <p>The norm bound is what noisy releases are calibrated against, so every implementation must
 * guarantee {@code ‖gradient(w, i)‖₂ ≤ normBound()} for every input — by construction or by
 * clamping — not merely on typical data.
 */
public interface GradientOracle {

    /** The per-example gradient at w for row i, written into out. Modified: out. Not modified: w. */
    void gradient(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj out);

    /** A bound on ‖gradient‖₂ valid for all inputs. */
    double normBound();

    /** Scalar-subgradient (or loss-gradient) evaluations per call, for cost reporting. */
    default int costPerCall() {
        return 1;
    }
}
