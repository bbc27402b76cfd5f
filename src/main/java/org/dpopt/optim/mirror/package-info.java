/**
 * Private stochastic mirror descent for weakly convex, possibly non-smooth losses in ℓp geometry.
 *
 * <ul>
 * <li>{@link org.dpopt.optim.mirror.ProximallyGuidedMirrorDescent} — Algorithm 6 / Theorem 20 of
 * Bassily, Guzmán, Menart, "Differentially Private Stochastic Optimization: New Results in Convex and
 * Non-Convex Settings", NeurIPS 2021, arXiv:2107.05585: the proximally guided outer loop of Davis and
 * Grimmer (SIAM J. Optim. 2019, arXiv:1707.03505) around a private strongly convex solver;</li>
 * <li>{@code LocalizedMirrorDescent} (internal) — that solver, 𝒜_sc: noisy stochastic mirror descent
 * with localization (Asi, Feldman, Koren, Talwar, ICML 2021, arXiv:2103.01516);</li>
 * <li>{@link org.dpopt.optim.mirror.ProximalStationarity} — the non-private near-stationarity
 * diagnostic the theorem bounds.</li>
 * </ul>
 *
 * <p><b>Privacy relation:</b> add/remove-one. Records are split into T_out·K parts by independent
 * uniform labels ({@link org.dpopt.sampling.Partitions#independentLabels}); each part runs one phase of
 * Poisson-subsampled Gaussian steps ({@link org.dpopt.sampling.PoissonSampler#over}) with per-example
 * gradients clipped to the declared Lipschitz bound, and the parts compose in parallel. For a convex
 * loss the default practical preset uses one part (T_out = K = 1) from the origin and releases the last
 * iterate; {@code Preset.PAPER} keeps the theorem's setting (theory-notes/defaults.md). Derivations and
 * parameters: {@code theory-notes/mirror-descent.md}; validation: {@code validation/mirror-descent.md}.
 */
package org.dpopt.optim.mirror;
