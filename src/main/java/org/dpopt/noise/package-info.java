/**
 * Noise for private releases, and where its randomness comes from.
 *
 * <p>Library code never creates randomness: it takes a generator from {@link org.dpopt.noise.Rngs} and
 * draws every noise value of a run from one {@link org.dpopt.noise.NoiseSource}, in one of two modes:
 * <ul>
 *   <li><b>seeded</b> (research, tests): the ziggurat Gaussian and the exponential-based Laplace over a
 *   reproducible generator ({@link org.dpopt.noise.SeededNoise}). Same seed, same bits; such a run makes
 *   no privacy claim of its own, and floating-point samplers are open to the attacks of Mironov ("On
 *   Significance of the Least Significant Bits for Differential Privacy", ACM CCS 2012).</li>
 *   <li><b>secure</b> (production): cryptographic bits ({@link org.dpopt.noise.SecureRng}, in the style
 *   of NIST SP 800-90A CTR_DRBG with AES-256) and exact samplers ({@code ExactSampler}, built on lazily
 *   drawn uniforms as in Karney, "Sampling exactly from the normal distribution", ACM TOMS 2016), whose
 *   released values are the ideal real-number mechanism's output rounded to a public grid
 *   ({@link org.dpopt.noise.SecureNoise}).</li>
 * </ul>
 *
 * <p><b>The soundness rule.</b> A release is at least as private as the event recorded for it: the
 * secure mode's outputs are a deterministic post-processing of the ideal Gaussian or Laplace mechanism
 * (or of exact report-noisy-max, {@link org.dpopt.noise.ReportNoisyMax}), so the accountant's true upper
 * bound for that event applies with no extra δ; where a sampler cannot decide a comparison exactly it
 * draws more bits, never guesses. Noise is added only through the run core, which records the event in
 * the same call. Derivations: {@code theory-notes/secure-noise.md}.
 */
package org.dpopt.noise;
