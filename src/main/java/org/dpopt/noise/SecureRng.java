package org.dpopt.noise;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The cryptographic generator of secure mode: a deterministic random bit generator in the style of
 * CTR_DRBG with AES-256 and no derivation function (NIST SP 800-90A Rev. 1, "Recommendation for Random
 * Number Generation Using Deterministic Random Bit Generators", 2015, §10.2.1), seeded and periodically
 * reseeded from {@link SecureRandom}. {@link Rngs#secure()} makes one; {@link NoiseSource#of} recognises
 * this type and then uses floating-point-safe samplers.
 *
 * <p>State: a 256-bit key K and a 128-bit counter V. Instantiate: K = 0, V = 0, then
 * {@code Update(entropy)} with 384 bits from {@code SecureRandom}. Each generate request returns the
 * AES-256-CTR key stream E_K(V+1) ‖ E_K(V+2) ‖ … (2¹⁹ bits = 64 KiB per request, the standard's
 * maximum) and ends with {@code Update(0)}, so a later key compromise does not reveal earlier output
 * (backtracking resistance). Update(p): T = E_K(V+1) ‖ E_K(V+2) ‖ E_K(V+3), T ← T ⊕ p, K ← T[0..32),
 * V ← T[32..48). Every {@value #RESEED_INTERVAL} requests (64 MiB) fresh 384 bits from
 * {@code SecureRandom} are mixed in the same way (Reseed). The key stream comes from the JCE
 * {@code AES/CTR/NoPadding} cipher (hardware AES where available), whose counter is the full 128-bit
 * block incremented big-endian, as in the standard. Tested against a NIST CAVP known answer.
 *
 * <p>Differences from a validated CTR_DRBG: no personalization string or additional input; the
 * entropy input is taken from the operating system's generator ({@code SecureRandom}) and assumed to
 * have full entropy; no health tests. Like every {@link UniformRandomProvider}, not thread-safe: one per
 * run (or per thread). Not reproducible, so its state is never printed; {@link #toString()} names only
 * the construction.
 */
public final class SecureRng implements UniformRandomProvider {
    /** Bytes per generate request: 2¹⁹ bits, SP 800-90A's max_number_of_bits_per_request. */
    static final int REQUEST_BYTES = 1 << 16;
    /** Generate requests between two reseeds from {@code SecureRandom}. */
    static final int RESEED_INTERVAL = 1 << 10;
    /** seedlen = key length + block length = 384 bits. */
    static final int SEED_BYTES = 48;
    /** Bytes per JCE call once warm (see {@link #keyStream}). */
    static final int CHUNK_BYTES = 4096;
    /** Bytes per JCE call while the JVM is cold. */
    static final int WARM_CHUNK = 64;
    /** Number of small calls per JVM. */
    static final int WARM_CALLS = 16384;
    private static int warmCalls;
    /** Reads big-endian longs straight from the byte stream (no buffer views per refill). */
    private static final VarHandle BIG_ENDIAN_LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final SecureRandom entropy; // null only for the fixed-key test constructor
    private final Cipher aes;
    private final byte[] key = new byte[32];
    private final byte[] counter = new byte[16];
    private final byte[] iv = new byte[16];
    private final byte[] zeros = new byte[REQUEST_BYTES + SEED_BYTES];
    private final byte[] stream = new byte[REQUEST_BYTES + SEED_BYTES];
    private final long[] words = new long[REQUEST_BYTES / 8];
    private int next = words.length;
    private int requestsSinceReseed;

    /** A generator seeded from {@code entropy} (normally {@code new SecureRandom()}). */
    SecureRng(SecureRandom entropy) {
        this.entropy = entropy;
        this.aes = newCipher();
        byte[] seed = new byte[SEED_BYTES];
        entropy.nextBytes(seed);
        instantiate(seed);
    }

    /**
     * Test only: a reproducible generator instantiated from the given 384-bit entropy input and never
     * reseeded. Package-private so that no caller outside this package can make "secure" noise from a
     * known key.
     */
    SecureRng(byte[] entropyInput) {
        if (entropyInput.length != SEED_BYTES) {
            throw new IllegalArgumentException("entropyInput must be 48 bytes but was " + entropyInput.length);
        }
        this.entropy = null;
        this.aes = newCipher();
        instantiate(entropyInput.clone());
    }

    private static Cipher newCipher() {
        try {
            return Cipher.getInstance("AES/CTR/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CTR/NoPadding is not available", e);
        }
    }

    private void instantiate(byte[] seed) {
        Arrays.fill(key, (byte) 0);
        Arrays.fill(counter, (byte) 0);
        update(seed);
        Arrays.fill(seed, (byte) 0);
    }

    /** CTR_DRBG_Update(provided, K, V) with |provided| = seedlen. */
    private void update(byte[] provided) {
        byte[] t = new byte[SEED_BYTES];
        keyStream(t, SEED_BYTES);
        for (int i = 0; i < SEED_BYTES; i++) {
            t[i] ^= provided[i];
        }
        System.arraycopy(t, 0, key, 0, 32);
        System.arraycopy(t, 32, counter, 0, 16);
        Arrays.fill(t, (byte) 0);
    }

    /**
     * out[0..len) ← E_K(V+1) ‖ E_K(V+2) ‖ … (len a multiple of 16); V is not advanced here. The key
     * stream comes from {@code update} calls: HotSpot replaces the counter-mode loop by its AES-NI
     * intrinsic only on this path (not on {@code doFinal}) and only once the call site is hot. The first
     * {@value #WARM_CALLS} calls in the JVM therefore use {@value #WARM_CHUNK}-byte pieces (about 1 MiB
     * of key stream), which makes the call site hot early; later calls use {@value #CHUNK_BYTES}-byte
     * pieces. Only the speed depends on this, never the output. Allocates only what the JCE needs for a
     * new key (its key schedule, about 2 KB, once per request): the counter block is reused.
     */
    private void keyStream(byte[] out, int len) {
        System.arraycopy(counter, 0, iv, 0, 16);
        increment(iv);
        try {
            aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"), new IvParameterSpec(iv));
            for (int off = 0; off < len;) {
                int chunk = warmCalls < WARM_CALLS ? WARM_CHUNK : CHUNK_BYTES;
                int l = Math.min(chunk, len - off);
                int done = aes.update(zeros, off, l, out, off);
                if (done != l) {
                    throw new IllegalStateException("AES-CTR returned " + done + " of " + l + " bytes");
                }
                off += l;
                if (chunk == WARM_CHUNK) {
                    warmCalls++; // racy across threads: harmless, it only selects a chunk size
                }
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR failed", e);
        }
        Arrays.fill(iv, (byte) 0);
    }

    /** V ← (V + 1) mod 2¹²⁸, big-endian. */
    private static void increment(byte[] v) {
        for (int i = v.length - 1; i >= 0; i--) {
            if (++v[i] != 0) {
                return;
            }
        }
    }

    /**
     * One CTR_DRBG generate request without additional input: out[0..len) ← next len bytes, then
     * Update(0). len ≤ {@link #REQUEST_BYTES}, a multiple of 16. Package-private for the known-answer
     * test; the provider methods use it in 64 KiB requests.
     */
    void generate(byte[] out, int len) {
        request(len);
        System.arraycopy(stream, 0, out, 0, len);
        Arrays.fill(stream, 0, len, (byte) 0);
    }

    /** A generate request: stream[0..len) ← output, then Update(0) (and Reseed first when due). */
    private void request(int len) {
        if (len > REQUEST_BYTES || len % 16 != 0 || len < 0) {
            throw new IllegalArgumentException("len must be a multiple of 16 in [0, " + REQUEST_BYTES + "] but was " + len);
        }
        if (entropy != null && requestsSinceReseed >= RESEED_INTERVAL) {
            byte[] seed = new byte[SEED_BYTES];
            entropy.nextBytes(seed);
            update(seed);
            Arrays.fill(seed, (byte) 0);
            requestsSinceReseed = 0;
        }
        // the request's output and Update's T come from one contiguous key stream:
        // E_K(V+1) … E_K(V+len/16) is the output, the next three blocks are T (provided data = 0)
        keyStream(stream, len + SEED_BYTES);
        System.arraycopy(stream, len, key, 0, 32);
        System.arraycopy(stream, len + 32, counter, 0, 16);
        Arrays.fill(stream, len, len + SEED_BYTES, (byte) 0);
        requestsSinceReseed++;
    }

    /** Package-private for the known-answer test: K ‖ V. */
    byte[] state() {
        byte[] s = new byte[SEED_BYTES];
        System.arraycopy(key, 0, s, 0, 32);
        System.arraycopy(counter, 0, s, 32, 16);
        return s;
    }

    private void refill() {
        request(REQUEST_BYTES);
        for (int i = 0; i < words.length; i++) {
            words[i] = (long) BIG_ENDIAN_LONGS.get(stream, 8 * i);
        }
        Arrays.fill(stream, 0, REQUEST_BYTES, (byte) 0);
        next = 0;
    }

    /** 64 bits of the generator's output (bytes in stream order, big-endian). */
    @Override
    public long nextLong() {
        if (next == words.length) {
            refill();
        }
        long w = words[next];
        words[next++] = 0;
        return w;
    }

    @Override
    public String toString() {
        return "SecureRng[AES-256 CTR_DRBG style, reseeded from SecureRandom]";
    }
}
