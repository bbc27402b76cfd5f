package org.dpopt.sampling;

import java.io.Serializable;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.linalg.Checks;

/**
 * The secret key of a keyed batch plan: 128 bits that, with a record's id, decide every batch the
 * record joins ({@link BatchPlan}). Drawn from the run's generator at the start of a run — from the
 * cryptographic generator for a private release — and never printed: {@link #toString} hides it.
 *
 * <p>Whoever knows the key knows the batches, which voids the amplification by sampling the privacy
 * statement relies on; the key therefore lives only on the driver and in the tasks that need it.
 *
 * @param high the first 64 bits
 * @param low the last 64 bits
 */
public record PlanKey(long high, long low) implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Draws a key: two 64-bit words from rng (in this order). */
    public static PlanKey draw(UniformRandomProvider rng) {
        Checks.notNull("rng", rng);
        long h = rng.nextLong();
        long l = rng.nextLong();
        return new PlanKey(h, l);
    }

    /** The key's 16 bytes, big-endian. */
    byte[] bytes() {
        byte[] b = new byte[16];
        for (int k = 0; k < 8; k++) {
            b[k] = (byte) (high >>> (56 - 8 * k));
            b[8 + k] = (byte) (low >>> (56 - 8 * k));
        }
        return b;
    }

    /** Never the key itself. */
    @Override
    public String toString() {
        return "PlanKey[secret]";
    }
}
