package org.dpopt.noise;

import java.math.BigInteger;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * A uniform real number U ∈ [0, 1] of which only a prefix of its binary expansion has been drawn
 * (exact sampling in the sense of Karney, "Sampling exactly from the normal distribution", ACM TOMS
 * 42(1), 2016, arXiv:1303.6257). After n bits with value A, U lies in [A/2ⁿ, (A+1)/2ⁿ]; more bits
 * are drawn only when a comparison cannot be decided on that interval. Decisions made on the prefix
 * are therefore exactly the decisions about the real U. Mutable and reused (no allocation on the fast
 * path); package-private.
 */
final class LazyUniform {
    /** Upper limit on the bits drawn for one number (see {@code theory-notes/secure-noise.md} §4). */
    static final int MAX_BITS = 53 + 64 * 64;

    /** The first 53 bits: U ∈ [top·2⁻⁵³, (top+1)·2⁻⁵³]. */
    long top;
    /** All drawn bits as an integer A once extended (null while n = 53). */
    private BigInteger bits;
    /** Number of drawn bits. */
    int n;

    /** Starts a new number from the top 53 bits of word (the low 11 bits are left to the caller). */
    void set(long word) {
        top = word >>> 11;
        bits = null;
        n = 53;
    }

    /** A: U ∈ [A/2ⁿ, (A+1)/2ⁿ]. */
    BigInteger numerator() {
        return bits != null ? bits : BigInteger.valueOf(top);
    }

    /** Draws 64 more bits. */
    void extend(UniformRandomProvider rng) {
        if (n + 64 > MAX_BITS) {
            throw new IllegalStateException("exact sampler could not decide a comparison with " + n
                    + " bits (an event of probability below 2^-1000)");
        }
        long w = rng.nextLong();
        BigInteger low = BigInteger.valueOf(w >>> 1).shiftLeft(1).or(BigInteger.valueOf(w & 1L));
        bits = numerator().shiftLeft(64).or(low);
        n += 64;
    }

    /** Copies other's state into this one. */
    void copyFrom(LazyUniform other) {
        top = other.top;
        bits = other.bits;
        n = other.n;
    }
}
