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
 * <li>{@link #secure()} — SECURE mode for production releases: bits from the operating system's
 * cryptographic generator ({@link SecureRandom}), buffered so that noise generation stays fast.
 * See {@code theory-notes/accounting.md} ("secure noise") for what this does and does not protect
 * against (floating-point attacks on continuous samplers).</li>
 * </ul>
 */
public final class Rngs {
    private Rngs() {
    }

    /** The reproducible generator used throughout dpopt. */
    public static UniformRandomProvider seeded(long seed) {
        return RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    }

    /** A generator drawing cryptographic bits from {@link SecureRandom}. Not reproducible. */
    public static UniformRandomProvider secure() {
        return new SecureProvider(new SecureRandom());
    }

    /** Buffered SecureRandom as a UniformRandomProvider. Not thread-safe (like all providers). */
    static final class SecureProvider implements UniformRandomProvider {
        private final SecureRandom random;
        private final byte[] buffer = new byte[4096];
        private int pos = buffer.length;

        SecureProvider(SecureRandom random) {
            this.random = random;
        }

        @Override
        public long nextLong() {
            if (pos + 8 > buffer.length) {
                random.nextBytes(buffer);
                pos = 0;
            }
            long v = 0;
            for (int k = 0; k < 8; k++) {
                v = (v << 8) | (buffer[pos++] & 0xffL);
            }
            return v;
        }

        @Override
        public String toString() {
            return "SecureRandom(" + random.getAlgorithm() + ")";
        }
    }
}
