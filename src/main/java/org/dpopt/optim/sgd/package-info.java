/**
 * Noisy mini-batch SGD.
 *
 * <ul>
 * <li>{@link org.dpopt.optim.sgd.NoisySgd} ({@code dp-sgd}) — practical DP-SGD of Abadi et al., CCS 2016,
 * arXiv:1607.00133: any batch sampler of {@code org.dpopt.sampling}, per-example clipping, Gaussian
 * noise calibrated to the sampler's own event, division by the public normalizer.</li>
 * <li>{@link org.dpopt.optim.sgd.Bftt19Sgd} ({@code nsgd}) — the parameters of Bassily, Feldman,
 * Talwar, Thakurta, NeurIPS 2019, arXiv:1908.09970, Algorithm 1 / Theorem 3.2, on the same loop.</li>
 * <li>{@link org.dpopt.optim.sgd.NonPrivateSgd} — the loop without clipping or noise (a baseline).</li>
 * </ul>
 *
 * <p>Relation: the sampler's (add/remove-one for Poisson; zero-out for fixed-size and truncated
 * samplers). See {@code theory-notes/noisy-sgd.md} and {@code theory-notes/batch-samplers.md}.
 */
package org.dpopt.optim.sgd;
