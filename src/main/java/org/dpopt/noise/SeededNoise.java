package org.dpopt.noise;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * Research-mode noise: the ziggurat Gaussian and the exponential-based Laplace over the caller's
 * generator (the same draws dpopt has always made, so seeded runs stay bit-identical). Floating-point
 * samplers: not safe against the attacks of Mironov (CCS 2012); {@link #implementationDelta} is 0
 * because seeded mode makes no privacy claim of its own.
 */
final class SeededNoise implements NoiseSource {
    private final UniformRandomProvider rng;
    private final ZigguratSampler.NormalizedGaussian normal;
    private final LaplaceNoise laplace;

    SeededNoise(UniformRandomProvider rng) {
        this.rng = rng;
        this.normal = ZigguratSampler.NormalizedGaussian.of(rng);
        this.laplace = LaplaceNoise.of(rng);
    }

    @Override
    public boolean isSecure() {
        return false;
    }

    @Override
    public void addGaussian(DMatrixRMaj v, double sensitivity, double noiseMultiplier) {
        Checks.positive("sensitivity", sensitivity);
        Checks.nonNegative("noiseMultiplier", noiseMultiplier);
        add(v, noiseMultiplier * sensitivity);
    }

    @Override
    public void addLaplace(DMatrixRMaj v, double l1Sensitivity, double noiseMultiplier) {
        Checks.positive("l1Sensitivity", l1Sensitivity);
        Checks.positive("noiseMultiplier", noiseMultiplier);
        double b = noiseMultiplier * l1Sensitivity;
        double[] xs = v.data;
        int d = v.getNumElements();
        for (int j = 0; j < d; j++) {
            xs[j] += laplace.sample(b);
        }
    }

    @Override
    public double objectiveNoiseGrid(double sigma) {
        Checks.nonNegative("sigma", sigma);
        return 0;
    }

    @Override
    public double implementationDelta(double epsilon) {
        if (!(epsilon >= 0)) {
            throw Checks.fail("epsilon", "non-negative", epsilon);
        }
        return 0;
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

    @Override
    public long secureDraws() {
        return 0;
    }

    @Override
    public void countDrawsOf(long draws) {
        // seeded noise makes no implementation claim
    }
}
