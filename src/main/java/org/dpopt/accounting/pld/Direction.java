package org.dpopt.accounting.pld;

/**
 * Which ordered pair of the add/remove-one relation a PLD describes. For the Poisson-subsampled
 * Gaussian, REMOVE is P = (1−q)N(0,σ²) + qN(1,σ²) vs Q = N(0,σ²) and ADD is the reversed pair; for the
 * (unsampled) Gaussian and Laplace mechanisms both coincide.
 */
public enum Direction {
    /** The neighbour has one record fewer: P = M(S), Q = M(S minus a record). */
    REMOVE,
    /** The neighbour has one record more. */
    ADD
}
