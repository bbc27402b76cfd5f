package org.dpopt.geometry;

import java.util.OptionalDouble;
import org.ejml.data.DMatrixRMaj;

/**
 * A closed convex constraint set W ⊂ ℝ^d with Euclidean projection. Implementations are immutable.
 *
 * <p>Sets are described independently of d where they can be (an ℓ2 ball of radius r), so every
 * size query takes the dimension: {@link #diameter(int)} and {@link #radius(int)} are exact in every
 * dimension (a box's diameter grows like √d). Optimizers ask the set these questions instead of
 * testing for concrete types.
 */
public interface ConvexSet {

    /** w ← Π_W(w), the Euclidean projection, in place. Modified: w. Must not allocate. */
    void project(DMatrixRMaj w);

    /** The ℓ2 diameter of W ⊂ ℝ^d (+∞ if unbounded). */
    double diameter(int d);

    /** sup_{w∈W} ‖w‖₂ in ℝ^d (+∞ if unbounded): the "M" of BFTT19. */
    double radius(int d);

    /** True if w ∈ W up to an absolute tolerance tol. Not modified: w. */
    boolean contains(DMatrixRMaj w, double tol);

    /** True if W is bounded (in every dimension). */
    boolean isBounded();

    /** True if W = ℝ^d (projection is the identity). */
    default boolean isWholeSpace() {
        return false;
    }

    /**
     * True if W is symmetric under negating any one coordinate (w ∈ W ⇒ (w_1, …, −w_j, …, w_d) ∈ W):
     * ℓp balls, ℝ^d, boxes [−a, a]^d. A coordinate of such a set can take either sign, which an
     * intercept's coordinate needs; a set that fixes signs (the simplex) makes an intercept meaningless.
     * Default false (unknown sets are refused an intercept).
     */
    default boolean isSignSymmetric() {
        return false;
    }

    /** The radius r if W is the centred ℓ2 ball {w : ‖w‖₂ ≤ r}; empty otherwise. */
    default OptionalDouble centredBallRadius() {
        return OptionalDouble.empty();
    }
}
