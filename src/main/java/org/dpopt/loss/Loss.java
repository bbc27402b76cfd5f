package org.dpopt.loss;

import org.dpopt.data.Dataset;
import org.dpopt.data.Labels;
import org.ejml.data.DMatrixRMaj;

/**
 * A per-example loss f(w; z_i) on a dataset row. Implementations are immutable and thread-safe.
 *
 * <p>The constants it declares are <em>public</em> and are what privacy rests on: an optimizer
 * computes sensitivities from {@link #lipschitz(double)}, never from the data.
 */
public interface Loss {

    /** How convex the loss is in w; optimizers check that their theorem applies. */
    enum Convexity {
        /** Convex in w. */
        CONVEX,
        /** ρ-weakly convex: f + (ρ/2)‖w‖² is convex (ρ from {@link Loss#weakConvexity(double)}). */
        WEAKLY_CONVEX,
        /** No convexity assumed. */
        NONCONVEX
    }

    /** A short name used by the CLI and reports, e.g. {@code "logistic"}. */
    String name();

    /** f(w; z_i). Not modified: w. */
    double value(DMatrixRMaj w, Dataset data, int i);

    /**
     * A (sub)gradient ∇f(w; z_i) written into out. Modified: out (a vector of
     * {@link #parameterDimension}(d) entries, d×1 for a scalar model). Not modified: w.
     * Implementations must not allocate.
     */
    void gradient(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj out);

    /**
     * A bound L on ‖∇f(w; z)‖₂ valid for all w and all rows with ‖x‖ ≤ rowNormBound.
     * {@code Double.POSITIVE_INFINITY} if none exists.
     */
    double lipschitz(double rowNormBound);

    /** Smoothness β (gradient Lipschitz) in ℓ2; {@code +∞} for non-smooth losses. */
    double smoothness(double rowNormBound);

    /** The convexity class. */
    Convexity convexity();

    /** Weak-convexity constant ρ (0 for convex losses, +∞ when unknown). */
    default double weakConvexity(double rowNormBound) {
        return convexity() == Convexity.CONVEX ? 0.0 : Double.POSITIVE_INFINITY;
    }

    /** True if the loss is a classification loss (labels read as y &gt; 0 ⇒ +1). */
    boolean isClassification();

    /**
     * The number m of linear scores the model computes per row: 1 for a scalar model w ∈ ℝ^d (binary
     * and regression losses), k for a k-class model W ∈ ℝ^{k×d}.
     */
    default int outputs() {
        return 1;
    }

    /**
     * The length of the parameter vector for d features: m·d, laid out as m blocks of d (block c holds
     * the weights of score c).
     */
    default int parameterDimension(int features) {
        return Math.multiplyExact(outputs(), features);
    }

    /**
     * Refuses labels this loss cannot read: for a binary classification loss, labels outside {0, 1} or
     * {−1, +1} (or a mixture of the two); for a k-class loss, labels outside 0..k−1. Regression losses
     * accept any finite label.
     *
     * @param source how the data is named in a message
     */
    default void checkLabels(Dataset data, String source) {
        if (isClassification()) {
            Labels.binaryEncoding(data, source);
        }
    }
}
