/**
 * Private convex optimization of non-smooth losses through Moreau-envelope smoothing.
 *
 * <ul>
 * <li>{@link org.dpopt.optim.smoothing.PhasedSgd} — Phased-SGD (iterative localization) of Feldman,
 * Koren, Talwar, "Private Stochastic Convex Optimization: Optimal Rates in Linear Time", STOC 2020,
 * arXiv:2005.04763, with the bisection prox of Bassily, Guzmán, Menart, NeurIPS 2021,
 * arXiv:2107.05585 (Algorithm 2, Thms 6–7) for non-smooth generalized linear losses
 * ({@link org.dpopt.oracle.GllBisectionProx}). <b>Relation: replace-one</b> — phases run on
 * consecutive chunks of a data-independent record order and compose in parallel. The default
 * practical preset runs at most two phases over all records and releases each phase's last iterate
 * (same sensitivity bound); {@code Preset.PAPER} keeps the theorem's schedule.</li>
 * <li>{@link org.dpopt.optim.smoothing.ProxSgd} — A_ProxGD of Bassily, Feldman, Talwar, Thakurta,
 * "Private Stochastic Convex Optimization with Optimal Rates", NeurIPS 2019, arXiv:1908.09970 (§4):
 * noisy SGD ({@link org.dpopt.optim.sgd}) on the Moreau envelope of a general convex loss, each
 * per-example gradient from an inner prox solve ({@link org.dpopt.oracle.MoreauEnvelopeOracle}).
 * <b>Relation: that of the wrapped noisy SGD</b> (add/remove-one, Poisson sampling).</li>
 * </ul>
 *
 * <p>In both, the smoothed per-example gradient is clipped to the declared bound before it enters a
 * noisy release, so the accuracy of the inner solve affects utility (and, for Phased-SGD, the
 * sensitivity bound it is charged to) but never the privacy argument. Derivations:
 * {@code theory-notes/phased-sgd.md}, {@code theory-notes/moreau-smoothing.md}; validation:
 * {@code validation/smoothing.md}.
 */
package org.dpopt.optim.smoothing;
