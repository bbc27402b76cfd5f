package org.dpopt.noise;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * Every noise draw of one run comes from one {@code NoiseSource}, made from the caller's generator by
 * {@link #of}. Two modes share this interface:
 *
 * <ul>
 * <li><b>seeded</b> (research): continuous samplers (ziggurat Gaussian, exponential-based Laplace) over
 * the caller's reproducible generator. Same seed, same bits. Such a run is <em>not private</em> unless
 * the seed itself is secret and random, and its floating-point noise is open to the attacks of
 * Mironov (CCS 2012).</li>
 * <li><b>secure</b> (production): the generator came from {@link Rngs#secure()}; releases use samplers
 * that are safe against floating-point attacks (see {@code theory-notes/secure-noise.md}).</li>
 * </ul>
 *
 * <p>The release methods take the release's <em>sensitivity</em> and the noise parameter the privacy
 * event records, so that an implementation may enlarge the noise (never shrink it) to cover its own
 * discretisation. Not thread-safe; one per run.
 */
public interface NoiseSource {

    /** What a seeded run says about itself (reports, JSON {@code "noise"}, stderr). */
    String SEEDED_DESCRIPTION = "seeded: reproducible, not private unless the seed is secret and random";

    /** What a secure run says about itself. */
    String SECURE_DESCRIPTION = "secure";

    /** The noise source for a run drawing from rng: secure iff rng came from {@link Rngs#secure()}. */
    static NoiseSource of(UniformRandomProvider rng) {
        Checks.notNull("rng", rng);
        return rng instanceof Rngs.SecureProvider ? new SeededNoise(rng, true) : new SeededNoise(rng, false);
    }

    /** True for production noise (cryptographic bits, floating-point-safe samplers). */
    boolean isSecure();

    /** {@link #SECURE_DESCRIPTION} or {@link #SEEDED_DESCRIPTION}. */
    default String description() {
        return isSecure() ? SECURE_DESCRIPTION : SEEDED_DESCRIPTION;
    }

    /**
     * A Gaussian release: v ← v + N(0, σ²I) with σ = z·Δ, for a vector v whose ℓ2 sensitivity is at
     * most Δ. The caller records {@code GaussianEvent(z)}. Modified: v.
     *
     * @param v the value to release (d×1)
     * @param sensitivity Δ &gt; 0, the ℓ2 sensitivity of v (public)
     * @param noiseMultiplier z ≥ 0
     */
    void addGaussian(DMatrixRMaj v, double sensitivity, double noiseMultiplier);

    /**
     * Gaussian noise that is not released directly but enters a computation whose privacy proof uses
     * its density (objective perturbation's linear term): out ← out + N(0, σ²I). Modified: out.
     */
    void addObjectiveNoise(DMatrixRMaj out, double sigma);

    /**
     * Report-noisy-max: the index j ∈ [0, count) maximising {@code sign·scores[j] + noise_j} with the
     * mechanism's noise (its {@link ReportNoisyMax#event()} is what the caller records). Not modified:
     * scores.
     *
     * @param sign +1 for argmax, −1 for argmin
     */
    int reportNoisyMax(ReportNoisyMax rnm, double[] scores, int count, double sign);

    /** A standard-normal draw for data-independent randomisation (e.g. a random start), never a release. */
    double standardNormal();
}
