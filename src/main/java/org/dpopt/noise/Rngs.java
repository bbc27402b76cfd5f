package org.dpopt.noise;

import java.security.SecureRandom;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Where randomness comes from. Library code never creates randomness: it takes a
 * {@link UniformRandomProvider}. This class makes the two kinds callers pass in.
 *
 * <ul>
 * <li>{@link #seeded(long)} — SEEDED mode for research and tests: XO_RO_SHI_RO_128_PP, same seed ⇒
 * same bits.</li>
 * <li>{@link #secure()} — SECURE mode for production releases: a {@link SecureRng} (AES-256 in the
 * style of NIST SP 800-90A CTR_DRBG, seeded and reseeded from {@link SecureRandom}; a few ns per
 * 64-bit word once the JVM is warm). {@link NoiseSource#of} recognises it and switches to exact, floating-point-safe samplers
 * (see {@code theory-notes/secure-noise.md}).</li>
 * </ul>
 */
public final class Rngs {
    private Rngs() {
    }

    /** The reproducible generator used throughout dpopt. */
    public static UniformRandomProvider seeded(long seed) {
        return RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    }

    /**
     * A fresh cryptographic generator, seeded from {@link SecureRandom}. Not reproducible; its state is
     * never printed. Passing it to {@link NoiseSource#of} selects secure noise.
     */
    public static SecureRng secure() {
        return new SecureRng(new SecureRandom());
    }
}
