package org.dpopt.noise;

import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * Production noise: cryptographic bits ({@link SecureRng}) and exact samplers ({@link ExactSampler})
 * whose released values are the ideal real-number mechanism's output rounded to a public grid. Why this
 * is at least as private as the event the caller records, with no extra δ: {@code
 * theory-notes/secure-noise.md}.
 *
 * <ul>
 * <li>Gaussian release: each coordinate becomes rnd(γ·round((v_j + σZ_j)/γ)), Z_j ~ N(0, 1) exact,
 * σ = z·Δ rounded up, γ = {@link #releaseGrid}(σ) = 2^(⌊log₂σ⌋ − 24) — post-processing of the
 * Gaussian mechanism N(v, σ²I).</li>
 * <li>Laplace release: the same with Lap(b), b = noiseMultiplier·Δ₁ rounded up, γ = releaseGrid(b).</li>
 * <li>Report-noisy-max: the exact argmax of sign·s_j + b·L_j over real numbers, b ≥ the mechanism's
 * scale (rounded up so that b·ε0 ≥ cΔ holds exactly).</li>
 * <li>Objective noise: out + G with G ~ N(0, σ²I) exact, rounded to the finer grid
 * {@link #objectiveNoiseGrid}(σ) = 2^(⌊log₂σ⌋ − 40) (see that method for what this does and does not
 * give).</li>
 * </ul>
 */
final class SecureNoise implements NoiseSource {
    /** Release grid: γ = 2^(⌊log₂σ⌋ − RELEASE_GRID_BITS), so σ/γ ∈ [2²⁴, 2²⁵). */
    static final int RELEASE_GRID_BITS = 24;
    /** Objective-noise grid: 2^(⌊log₂σ⌋ − OBJECTIVE_GRID_BITS). */
    static final int OBJECTIVE_GRID_BITS = 40;
    /** Supported noise scales: σ, b ∈ [2^−MAX_SCALE_EXPONENT, 2^MAX_SCALE_EXPONENT]. */
    static final int MAX_SCALE_EXPONENT = 960;
    /**
     * Per draw, an upper bound on the probability that an exact comparison is still undecided after
     * {@link LazyUniform#MAX_BITS} bits (the sampler then throws rather than guess).
     */
    static final double CAP_FAILURE_PER_DRAW = 0x1p-1000;

    private final SecureRng rng;
    private final ExactSampler exact;
    private final ZigguratSampler.NormalizedGaussian normal;
    private long draws;

    SecureNoise(SecureRng rng) {
        this.rng = rng;
        this.exact = new ExactSampler(rng);
        this.normal = ZigguratSampler.NormalizedGaussian.of(rng);
    }

    @Override
    public boolean isSecure() {
        return true;
    }

    /** The public output grid of a release with noise scale σ (or b). */
    static double releaseGrid(double scale) {
        return Math.scalb(1.0, Math.getExponent(checkScale("sigma", scale)) - RELEASE_GRID_BITS);
    }

    @Override
    public double objectiveNoiseGrid(double sigma) {
        Checks.nonNegative("sigma", sigma);
        return sigma == 0 ? 0 : Math.scalb(1.0, Math.getExponent(checkScale("sigma", sigma)) - OBJECTIVE_GRID_BITS);
    }

    private static double checkScale(String name, double scale) {
        if (!(scale >= 0x1p-960 && scale <= 0x1p960)) {
            throw Checks.fail(name, "in [2^-960, 2^960] for secure noise", scale);
        }
        return scale;
    }

    /** The double nearest above or at the exact product a·b (a, b &gt; 0). */
    static double productRoundedUp(double a, double b) {
        double p = a * b;
        if (Math.fma(a, b, -p) > 0) {
            p = Math.nextUp(p);
        }
        return p;
    }

    @Override
    public void addGaussian(DMatrixRMaj v, double sensitivity, double noiseMultiplier) {
        Checks.positive("sensitivity", sensitivity);
        Checks.nonNegative("noiseMultiplier", noiseMultiplier);
        if (noiseMultiplier == 0) {
            return; // no noise: a non-private release the caller has asked for
        }
        double sigma = checkScale("sigma", productRoundedUp(noiseMultiplier, sensitivity));
        releaseAll(v, sigma, releaseGrid(sigma), true);
    }

    @Override
    public void addLaplace(DMatrixRMaj v, double l1Sensitivity, double noiseMultiplier) {
        Checks.positive("l1Sensitivity", l1Sensitivity);
        Checks.positive("noiseMultiplier", noiseMultiplier);
        double b = checkScale("scale", productRoundedUp(noiseMultiplier, l1Sensitivity));
        releaseAll(v, b, releaseGrid(b), false);
    }

    @Override
    public void addObjectiveNoise(DMatrixRMaj out, double sigma) {
        Checks.nonNegative("sigma", sigma);
        if (sigma == 0) {
            return;
        }
        releaseAll(out, sigma, objectiveNoiseGrid(sigma), true);
    }

    private void releaseAll(DMatrixRMaj v, double scale, double gamma, boolean gaussian) {
        double[] xs = v.data;
        int d = v.getNumElements();
        for (int j = 0; j < d; j++) {
            if (!Double.isFinite(xs[j])) {
                throw Checks.fail("v[" + j + "]", "finite", xs[j]);
            }
        }
        double s = scale / gamma; // exact: γ is a power of two
        for (int j = 0; j < d; j++) {
            xs[j] = gaussian ? exact.gaussianRelease(xs[j], s, gamma) : exact.laplaceRelease(xs[j], s, gamma);
        }
        draws += d;
    }

    @Override
    public int reportNoisyMax(ReportNoisyMax rnm, double[] scores, int count, double sign) {
        Checks.notNull("rnm", rnm);
        if (count < 1 || count > scores.length) {
            throw Checks.fail("count", "in [1, " + scores.length + "]", count);
        }
        if (sign != 1.0 && sign != -1.0) {
            throw Checks.fail("sign", "+1 or -1", sign);
        }
        for (int j = 0; j < count; j++) {
            if (!Double.isFinite(scores[j])) {
                throw Checks.fail("scores[" + j + "]", "finite", scores[j]);
            }
        }
        draws += count;
        return exact.argmax(scores, count, sign, secureScale(rnm));
    }

    /** rnm's scale, raised by ulps until b·ε0 ≥ cΔ holds exactly (c = 1 if monotone, else 2). */
    static double secureScale(ReportNoisyMax rnm) {
        double c = rnm.monotone() ? 1.0 : 2.0;
        double target = c * rnm.sensitivity(); // exact
        double b = checkScale("scale", rnm.scale());
        while (Math.fma(b, rnm.epsilon(), -target) < 0) {
            b = Math.nextUp(b);
        }
        return b;
    }

    @Override
    public double standardNormal() {
        return normal.sample();
    }

    @Override
    public double implementationDelta(double epsilon) {
        if (!(epsilon >= 0)) {
            throw Checks.fail("epsilon", "non-negative", epsilon);
        }
        double bound = (1 + Math.exp(epsilon)) * (double) draws * CAP_FAILURE_PER_DRAW;
        return Math.min(1.0, bound);
    }

    /** Released coordinates and candidates so far. */
    long draws() {
        return draws;
    }

    @Override
    public long secureDraws() {
        return draws;
    }

    @Override
    public void countDrawsOf(long d) {
        if (d < 0) {
            throw Checks.fail("draws", "non-negative", d);
        }
        draws = Math.addExact(draws, d);
    }

    /** Slow-path count (tests and benchmarks). */
    long slowPaths() {
        return exact.slowPaths;
    }

    @Override
    public String toString() {
        return "SecureNoise[" + rng + "]";
    }
}
