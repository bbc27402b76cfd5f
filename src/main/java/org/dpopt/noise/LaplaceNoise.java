package org.dpopt.noise;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.linalg.Checks;

/**
 * Laplace noise Lap(b) with density exp(−|x|/b)/(2b), by inversion of two exponentials
 * (X = b(E₁ − E₂)). Not thread-safe; create per run.
 */
public final class LaplaceNoise {
    private final UniformRandomProvider rng;

    private LaplaceNoise(UniformRandomProvider rng) {
        this.rng = rng;
    }

    /** A sampler over rng. */
    public static LaplaceNoise of(UniformRandomProvider rng) {
        return new LaplaceNoise(Checks.notNull("rng", rng));
    }

    /** One draw of Lap(b), b &gt; 0. */
    public double sample(double b) {
        // -log(U) with U in (0, 1]: nextDouble is in [0, 1), so use 1 - U
        double e1 = -Math.log(1.0 - rng.nextDouble());
        double e2 = -Math.log(1.0 - rng.nextDouble());
        return b * (e1 - e2);
    }
}
