package org.dpopt.geometry;

/**
 * A centred, sign-symmetric ball of radius r whose ℓ2 radius is r in every dimension (the ℓp balls with
 * p ≤ 2, since ‖w‖₂ ≤ ‖w‖_p): ℓ2 diameter 2r, bounded.
 */
interface CentredBall extends ConvexSet {
    /** The radius r &gt; 0. */
    double r();

    @Override
    default double diameter(int d) {
        return 2 * r();
    }

    @Override
    default double radius(int d) {
        return r();
    }

    @Override
    default boolean isBounded() {
        return true;
    }

    @Override
    default boolean isSignSymmetric() {
        return true;
    }
}
