package org.dpopt.loss;

import org.dpopt.data.Dataset;
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
        /** ρ-weakly convex: f + (ρ/2)‖w‖² is convex (ρ from {@link #weakConvexity()}). */
        WEAKLY_CONVEX,
        /** No convexity assumed. */
        NONCONVEX
    }

    /** A short name used by the CLI and reports, e.g. {@code "logistic"}. */
    String name();

    /** f(w; z_i). Not modified: w. */
    double value(DMatrixRMaj w, Dataset data, int i);

    /**
     * A (sub)gradient ∇f(w; z_i) written into out. Modified: out (d×1). Not modified: w.
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
}
