package org.dpopt.accounting.pld;

/**
 * One tilted evaluation of a composition: the computed window of the tilted convolution and the
 * quantities that turn it into rigorous bounds (see {@link TiltedFft} for how each is obtained and
 * {@link TiltBounds} for how they are charged).
 *
 * <p>With tilt λ, scale C = Π M̃_i^{T_i} and computed window ỹ on grid indices ka, ka + 1, …, the
 * finite part of the composition is F(l_k) = C e^{−λ l_k} y_k with |ỹ − y|₂ ≤ e2 (tilted units) and the
 * tilted arrays' own rounding a relative factor e^{±ξ}.
 */
final class Tilt {
    double lambda;
    /** log Π M̃_i^{T_i}. */
    double logScale;
    /** Relative rounding of the tilted arrays, summed over factors and counts (as a log). */
    double xi;
    long ka;
    double[] y;
    /** Bound on the ℓ2 norm of the error of y (tilted units), underflow included. */
    double e2;
    /** Upper bound on the tilted mass outside the window (for the optimistic mode). */
    double alias;
    /** Upper bound on the untilted finite mass above the window (for the pessimistic mode). */
    double tailAbove;
    /** log of 1/sqrt(1 − e^{−2λh}) (the ℓ2 norm of e^{−λ(s − s0)} over the grid s ≥ s0). */
    double logWeightNorm;
}
