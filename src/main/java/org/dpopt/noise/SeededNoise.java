package org.dpopt.noise;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * Research-mode noise: the ziggurat Gaussian and the exponential-based Laplace over the caller's
 * generator (the same draws dpopt has always made, so seeded runs stay bit-identical).
 */
final class SeededNoise implements NoiseSource {
    private final UniformRandomProvider rng;
    private final ZigguratSampler.NormalizedGaussian normal;
    private final boolean secureBits;

    SeededNoise(UniformRandomProvider rng, boolean secureBits) {
        this.rng = rng;
        this.normal = ZigguratSampler.NormalizedGaussian.of(rng);
        this.secureBits = secureBits;
    }

    /** INTERIM: cryptographic bits into the continuous samplers, until the floating-point-safe samplers land. */
    @Override
    public boolean isSecure() {
        return secureBits;
    }

    @Override
    public void addGaussian(DMatrixRMaj v, double sensitivity, double noiseMultiplier) {
        Checks.positive("sensitivity", sensitivity);
        Checks.nonNegative("noiseMultiplier", noiseMultiplier);
        add(v, noiseMultiplier * sensitivity);
    }

    @Override
    public void addObjectiveNoise(DMatrixRMaj out, double sigma) {
        Checks.nonNegative("sigma", sigma);
        add(out, sigma);
    }

    private void add(DMatrixRMaj v, double sigma) {
        double[] xs = v.data;
        int d = v.getNumElements();
        for (int j = 0; j < d; j++) {
            xs[j] += sigma * normal.sample();
        }
    }

    @Override
    public int reportNoisyMax(ReportNoisyMax rnm, double[] scores, int count, double sign) {
        return rnm.select(scores, count, rng, sign);
    }

    @Override
    public double standardNormal() {
        return normal.sample();
    }

    @Override
    public String toString() {
        return "SeededNoise[" + rng + "]";
    }
}
