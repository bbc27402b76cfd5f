package org.dpopt.noise;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SecureRngTest {

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    /**
     * NIST CAVP DRBG test vectors (drbgvectors_no_reseed, CTR_DRBG.txt), [AES-256 no df],
     * PredictionResistance = False, EntropyInputLen = 384, NonceLen = 0, PersonalizationStringLen = 0,
     * AdditionalInputLen = 0, ReturnedBitsLen = 512, COUNT = 0: instantiate, generate 512 bits (discarded),
     * generate 512 bits (ReturnedBits). Intermediate Key/V as listed with the vector.
     */
    @Test
    void nistCavpKnownAnswer() {
        SecureRng drbg = new SecureRng(hex(
                "df5d73faa468649edda33b5cca79b0b05600419ccb7a879ddfec9db32ee494e5531b51de16a30f769262474c73bec010"));
        assertArrayEquals(hex("8c52f901632d522774c08fad0eb2c33b98a701a1861aecf3d8a25860941709fd"
                + "217b52142105250243c0b2c206b8f59e"), drbg.state());
        byte[] out = new byte[64];
        drbg.generate(out, 64);
        assertArrayEquals(hex("72f4af5c93258eb3eeec8c0cacea6c1d1978a4fad44312725f1ac43b167f2d52"
                + "e86f6d07dfb551cebad80e6bf6830ac4"), drbg.state());
        drbg.generate(out, 64);
        assertArrayEquals(hex("d1c07cd95af8a7f11012c84ce48bb8cb87189e99d40fccb1771c619bdf82ab22"
                + "80b1dc2f2581f39164f7ac0c510494b3a43c41b7db17514c87b107ae793e01c5"), out);
        assertArrayEquals(hex("1a1c6e5f1cccc6974436e5fd3f015bc8e9dc0f90053b73e3c19d4dfd66d1b85a"
                + "53c78ac61a0bac9d7d2e92b1e73e3392"), drbg.state());
    }

    /** The JCE counter-mode request equals the standard's block-by-block definition (AES-ECB, V+1, V+2, …). */
    @Test
    void requestsEqualBlockByBlockDefinition() throws Exception {
        byte[] seed = new byte[48];
        for (int i = 0; i < 48; i++) {
            seed[i] = (byte) (37 * i + 11);
        }
        SecureRng drbg = new SecureRng(seed);
        for (int round = 0; round < 3; round++) {
            byte[] s = drbg.state();
            byte[] key = java.util.Arrays.copyOf(s, 32);
            byte[] v = java.util.Arrays.copyOfRange(s, 32, 48);
            // V near a carry boundary is exercised by the increment itself over 4096 + 3 blocks
            int len = SecureRng.REQUEST_BYTES;
            byte[] expected = new byte[len + 48];
            Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
            ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
            java.math.BigInteger ctr = new java.math.BigInteger(1, v);
            java.math.BigInteger mod = java.math.BigInteger.ONE.shiftLeft(128);
            for (int b = 0; b < expected.length / 16; b++) {
                ctr = ctr.add(java.math.BigInteger.ONE).mod(mod);
                byte[] blk = new byte[16];
                byte[] raw = ctr.toByteArray();
                int n = Math.min(16, raw.length);
                System.arraycopy(raw, raw.length - n, blk, 16 - n, n);
                ecb.doFinal(blk, 0, 16, expected, 16 * b);
            }
            byte[] out = new byte[len];
            drbg.generate(out, len);
            assertArrayEquals(java.util.Arrays.copyOf(expected, len), out);
            assertArrayEquals(java.util.Arrays.copyOfRange(expected, len, len + 48), drbg.state());
        }
    }

    @Test
    void providerWordsAreTheRequestStreamBigEndian() {
        byte[] seed = new byte[48];
        seed[0] = 1;
        SecureRng a = new SecureRng(seed);
        SecureRng b = new SecureRng(seed);
        byte[] out = new byte[SecureRng.REQUEST_BYTES];
        b.generate(out, out.length);
        ByteBuffer bb = ByteBuffer.wrap(out);
        for (int i = 0; i < out.length / 8; i++) {
            assertEquals(bb.getLong(), a.nextLong());
        }
        byte[] out2 = new byte[SecureRng.REQUEST_BYTES];
        b.generate(out2, out2.length);
        assertEquals(ByteBuffer.wrap(out2).getLong(), a.nextLong());
    }

    @Test
    void freshGeneratorsDifferAndReseedKeepsWorking() {
        SecureRng a = Rngs.secure();
        SecureRng b = Rngs.secure();
        assertNotEquals(a.nextLong(), b.nextLong());
        // cross one reseed (RESEED_INTERVAL requests of 8192 words): output continues and stays unbiased
        long words = (long) SecureRng.RESEED_INTERVAL * (SecureRng.REQUEST_BYTES / 8) + 1000;
        long ones = 0;
        for (long i = 0; i < words; i++) {
            ones += Long.bitCount(a.nextLong());
        }
        // 64·words ≈ 5.4e8 fair bits: sd of the count ≈ 1.16e4; 7 sd band, false failure < 3e-12
        double mean = 32.0 * words;
        assertEquals(mean, ones, 7 * Math.sqrt(16.0 * words));
        assertTrue(a.toString().contains("CTR_DRBG"));
        assertTrue(!a.toString().matches(".*[0-9a-f]{16}.*"), "toString must not print state");
    }

    @Test
    void refusesBadRequests() {
        SecureRng a = new SecureRng(new byte[48]);
        assertThrows(IllegalArgumentException.class, () -> a.generate(new byte[32], 15));
        assertThrows(IllegalArgumentException.class, () -> a.generate(new byte[1 << 17], 1 << 17));
        assertThrows(IllegalArgumentException.class, () -> new SecureRng(new byte[47]));
    }
}
