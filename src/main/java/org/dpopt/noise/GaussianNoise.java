package org.dpopt.noise;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * Isotropic Gaussian noise N(0, σ²I) over a caller-supplied {@link UniformRandomProvider}
 * (Commons RNG ziggurat sampler, ~2 ns per coordinate). Create one per run with {@link #of}; it is
 * not thread-safe. The caller records the matching {@code GaussianEvent}.
 */
public final class GaussianNoise {
    private final ZigguratSampler.NormalizedGaussian normal;

    private GaussianNoise(UniformRandomProvider rng) {
        this.normal = ZigguratSampler.NormalizedGaussian.of(rng);
    }

    /** A sampler over rng. */
    public static GaussianNoise of(UniformRandomProvider rng) {
        return new GaussianNoise(Checks.notNull("rng", rng));
    }

    /** v ← v + N(0, σ²I). Modified: v. σ ≥ 0. */
    public void addTo(DMatrixRMaj v, double sigma) {
        Checks.nonNegative("sigma", sigma);
        double[] xs = v.data;
        int d = v.getNumElements();
        for (int j = 0; j < d; j++) {
            xs[j] += sigma * normal.sample();
        }
    }

    /** One standard normal draw. */
    public double sample() {
        return normal.sample();
    }
}
