package org.dpopt.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * Secure Gaussian and Laplace releases allocate nothing per draw once warm: the bytes this thread
 * allocates over {@value #CALLS} releases of a d = {@value #D} vector, after as many warm-up releases,
 * average at most {@value #BOUND} bytes per coordinate. One object per draw would cost at least 16
 * bytes and one per release of the vector at least 16/d, so either fails the bound. What remains is the
 * JDK's AES key schedule when the generator takes its new key after each 64 KiB generate request (about
 * 2 KB per 8 192 words, i.e. ~0.24 B per word; the construction needs the new key for backtracking
 * resistance) and the rare exact slow path. Allocation does not depend on timing; secure output is
 * random, so the slow-path count varies, but at the release grid it runs for about 2⁻²² of the draws.
 * The generator is the fixed-key test instance, so the run is reproducible.
 */
class SecureNoiseAllocationTest {

    private static final int D = 100;
    private static final int CALLS = 5_000;
    private static final double BOUND = 1.0;

    private interface Release {
        void apply(NoiseSource noise, DMatrixRMaj v);
    }

    private static double bytesPerDraw(Release release) {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        NoiseSource noise = NoiseSource.of(new SecureRng(new byte[SecureRng.SEED_BYTES]));
        DMatrixRMaj v = new DMatrixRMaj(D, 1);
        for (int c = 0; c < CALLS; c++) {
            v.zero();
            release.apply(noise, v);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int c = 0; c < CALLS; c++) {
            v.zero();
            release.apply(noise, v);
        }
        long bytes = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(2L * CALLS * D, ((SecureNoise) noise).draws(), "every coordinate is one draw");
        return (double) bytes / ((double) CALLS * D);
    }

    @Test
    void secureGaussianDrawsAllocateNothingPerDraw() {
        double perDraw = bytesPerDraw((noise, v) -> noise.addGaussian(v, 1.0, 1.1));
        assertTrue(perDraw <= BOUND, "bytes per secure Gaussian draw must be at most " + BOUND + " but was " + perDraw);
    }

    @Test
    void secureLaplaceDrawsAllocateNothingPerDraw() {
        double perDraw = bytesPerDraw((noise, v) -> noise.addLaplace(v, 1.0, 0.7));
        assertTrue(perDraw <= BOUND, "bytes per secure Laplace draw must be at most " + BOUND + " but was " + perDraw);
    }
}
