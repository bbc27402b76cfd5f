package org.dpopt.geometry;

import org.ejml.data.DMatrixRMaj;

/**
 * A closed convex constraint set W ⊂ ℝ^d with Euclidean projection. Implementations are immutable.
 */
public interface ConvexSet {

    /** w ← Π_W(w), the Euclidean projection, in place. Modified: w. Must not allocate. */
    void project(DMatrixRMaj w);

    /** The ℓ2 diameter of W (+∞ if unbounded). */
    double diameter();

    /** sup_{w∈W} ‖w‖₂ (+∞ if unbounded): the "M" of BFTT19. */
    double radius();

    /** True if w ∈ W up to an absolute tolerance tol. Not modified: w. */
    boolean contains(DMatrixRMaj w, double tol);

    /** True if W is bounded. */
    default boolean isBounded() {
        return Double.isFinite(diameter());
    }
}
