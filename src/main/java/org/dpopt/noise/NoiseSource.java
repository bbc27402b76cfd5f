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
 * <li><b>secure</b> (production): the generator came from {@link Rngs#secure()} (a {@link SecureRng},
 * AES-256 CTR_DRBG style, seeded from {@code SecureRandom}); every release is computed by an exact
 * sampler and equals the ideal real-number mechanism's output rounded to a public grid (a
 * deterministic post-processing of it), so it is safe against floating-point attacks and at least as
 * private as the recorded event, with no extra δ (see {@code theory-notes/secure-noise.md}).</li>
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
        return rng instanceof SecureRng ? new SecureNoise((SecureRng) rng) : new SeededNoise(rng);
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
     * <p>Secure mode releases each coordinate as rnd(γ·round((v_j + σ′Z_j)/γ)) with Z_j ~ N(0, 1)
     * sampled exactly, σ′ ≥ z·Δ (z·Δ rounded up to a double) and the public grid γ = 2^(⌊log₂σ′⌋ − 24):
     * a deterministic function of the Gaussian mechanism's real output, hence at least as private as
     * {@code GaussianEvent(z)} under every accountant (composition, subsampling, PLD, RDP).
     *
     * @param v the value to release (d×1, finite entries)
     * @param sensitivity Δ &gt; 0, the ℓ2 sensitivity of v (public)
     * @param noiseMultiplier z ≥ 0 (z = 0 releases v unchanged, a non-private release)
     * @throws IllegalArgumentException on a bad parameter, a non-finite entry of v (secure mode), or in
     *     secure mode σ outside [2⁻⁹⁶⁰, 2⁹⁶⁰]
     */
    void addGaussian(DMatrixRMaj v, double sensitivity, double noiseMultiplier);

    /**
     * A Laplace release: v ← v + (Lap(b) per coordinate) with b = m·Δ₁, for a vector v whose ℓ1
     * sensitivity is at most Δ₁. The caller records {@code LaplaceEvent(m)} (pure (1/m)-DP). Secure mode
     * rounds v_j + b′L_j (L_j ~ Lap(1) exact, b′ ≥ m·Δ₁) to the grid 2^(⌊log₂b′⌋ − 24) as for the
     * Gaussian release, so every accountant's Laplace guarantee carries over. Modified: v.
     *
     * @param v the value to release (d×1, finite entries)
     * @param l1Sensitivity Δ₁ &gt; 0 (public)
     * @param noiseMultiplier m = b/Δ₁ &gt; 0, as recorded by {@code LaplaceEvent}
     * @throws IllegalArgumentException on a bad parameter or (secure mode) a non-finite entry of v
     */
    void addLaplace(DMatrixRMaj v, double l1Sensitivity, double noiseMultiplier);

    /**
     * Gaussian noise that is not released directly but enters a computation whose privacy proof uses
     * its density (objective perturbation's linear term): out ← out + N(0, σ²I). Modified: out.
     *
     * <p>Secure mode draws G ~ N(0, σ²I) exactly and stores out + G rounded to the public grid
     * {@link #objectiveNoiseGrid}(σ): the stored vector is out + G + e with |e_j| ≤ grid/2. A density
     * argument needs G itself, so this is sound only when the caller treats e as part of its solver
     * error (for a μ-strongly convex objective with linear term ⟨b, w⟩ the minimiser moves by at most
     * ‖e‖₂/μ ≤ grid·√d/(2μ)) and covers that error as it covers the solver's (e.g. by the output noise of
     * approximate minima perturbation). Discrete noise could not be used here at all: its grid would
     * show through the released minimiser.
     */
    void addObjectiveNoise(DMatrixRMaj out, double sigma);

    /**
     * The public grid of {@link #addObjectiveNoise} at σ: every stored coordinate differs from
     * out_j + G_j (G exact Gaussian) by at most half of it. 0 in seeded mode (which makes no such claim:
     * its continuous sampler is floating point).
     */
    double objectiveNoiseGrid(double sigma);

    /**
     * Report-noisy-max: the index j ∈ [0, count) maximising {@code sign·scores[j] + noise_j} with the
     * mechanism's noise (its {@link ReportNoisyMax#event()} is what the caller records). Not modified:
     * scores. Secure mode decides the argmax exactly over real numbers with Laplace noise of scale
     * b ≥ {@link ReportNoisyMax#scale()} (raised by ulps until b·ε0 ≥ cΔ holds exactly), so it is
     * exactly the ε0-DP mechanism (continuous noise: ties have probability 0).
     *
     * @param sign +1 for argmax, −1 for argmin
     * @throws IllegalArgumentException on a bad count or sign, or (secure mode) a non-finite score
     */
    int reportNoisyMax(ReportNoisyMax rnm, double[] scores, int count, double sign);

    /** A standard-normal draw for data-independent randomisation (e.g. a random start), never a release. */
    double standardNormal();

    /**
     * A δ the caller must add to the run's guarantee for this source's implementation, accumulated over
     * the releases made so far, at the run's ε. Seeded: 0 (no claim is made). Secure: (1 + e^ε)·N·2⁻¹⁰⁰⁰
     * for N released coordinates and candidates — the (rigorously bounded, astronomically unlikely)
     * event that an exact comparison stays undecided after the bit cap and the sampler throws instead
     * of releasing; sampling is otherwise exact.
     *
     * @param epsilon ε ≥ 0 of the run's (ε, δ) statement (+∞ allowed)
     */
    double implementationDelta(double epsilon);

    /** The coordinates and candidates released so far that {@link #implementationDelta} counts (0 if seeded). */
    long secureDraws();

    /**
     * Counts releases another source made for the same run (a first stage run on its own), so that
     * {@link #implementationDelta} covers them too; nothing for seeded noise.
     *
     * @param draws that source's {@link #secureDraws()} (≥ 0)
     */
    void countDrawsOf(long draws);
}
