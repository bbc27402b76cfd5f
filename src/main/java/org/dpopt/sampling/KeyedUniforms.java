package org.dpopt.sampling;

import java.io.Serializable;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.dpopt.linalg.Checks;

/**
 * A counter-based generator: the 64-bit word number {@code counter} of the stream {@code (tag, id)} is
 * the first half of AES-128_K(tag ‖ id ‖ counter) for the plan key K. A pseudorandom function of its
 * inputs, so words of distinct (tag, id, counter) are, to anyone without K, indistinguishable from
 * independent uniform words (the AES pseudorandom-permutation assumption; the PRP/PRF switching
 * term is below 2⁻⁶⁴ for the ≤ 2³² words per record a plan uses). Pure in its inputs: any machine,
 * any order, any partitioning computes the same words.
 *
 * <p>Block layout (16 bytes, big-endian): tag (1 byte) ‖ counter (7 bytes, &lt; 2⁵⁶) ‖ id (8 bytes).
 *
 * <p>Serializable for distributed tasks (the cipher is rebuilt where it is used); one instance per
 * thread: not thread-safe.
 */
final class KeyedUniforms implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final double TWO_TO_MINUS_53 = 0x1.0p-53;

    private final PlanKey key;
    private transient Cipher cipher;
    private transient byte[] in;
    private transient byte[] out;

    KeyedUniforms(PlanKey key) {
        this.key = Checks.notNull("key", key);
    }

    /** The 64-bit word {@code counter} of stream (tag, id). */
    long word(int tag, long id, long counter) {
        if (counter < 0 || counter >= (1L << 56)) {
            throw Checks.fail("counter", "in [0, 2^56)", counter);
        }
        if (cipher == null) {
            init();
        }
        long head = ((long) (tag & 0xff) << 56) | counter;
        for (int k = 0; k < 8; k++) {
            in[k] = (byte) (head >>> (56 - 8 * k));
            in[8 + k] = (byte) (id >>> (56 - 8 * k));
        }
        try {
            cipher.doFinal(in, 0, 16, out, 0);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES failed", e);
        }
        long v = 0;
        for (int k = 0; k < 8; k++) {
            v = (v << 8) | (out[k] & 0xffL);
        }
        return v;
    }

    /** A uniform double in (0, 1]: 1 − (top 53 bits)·2⁻⁵³. */
    double openClosed(int tag, long id, long counter) {
        return 1.0 - (word(tag, id, counter) >>> 11) * TWO_TO_MINUS_53;
    }

    private void init() {
        try {
            cipher = Cipher.getInstance("AES/ECB/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key.bytes(), "AES"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES is not available in this JVM", e);
        }
        in = new byte[16];
        out = new byte[16];
    }
}
