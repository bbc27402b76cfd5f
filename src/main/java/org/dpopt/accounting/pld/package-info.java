/**
 * The privacy-loss-distribution engine behind {@link org.dpopt.accounting.PldAccountant}.
 *
 * <p>A mechanism's dominating pair (P, Q) is described by the closed-form tails of its privacy loss
 * L = ln(p(X)/q(X)) ({@link org.dpopt.accounting.pld.LossModel}; the Gaussian, Laplace and
 * Poisson-subsampled Gaussian pairs, the last after Zhu, Dong and Wang, "Optimal Accounting of
 * Differential Privacy via Characteristic Function", AISTATS 2022) and put on the grid l_k = k·h
 * (<em>pessimistic</em>: connect-the-dots, whose curve lies above the true one at every ε — Doroshenko,
 * Ghazi, Kamath, Kumar and Manurangsi, PoPETs 2022; <em>optimistic</em>: losses rounded down, below it;
 * see {@link org.dpopt.accounting.pld.Rounding}). A
 * {@link org.dpopt.accounting.pld.PrivacyLossDistribution} is a lazy composition of such factors; its
 * privacy curve δ(ε) = U + Σ_s F(s)(1 − e^{ε−s})_+ and its inverse ε(δ) are evaluated at the query.
 *
 * <p><b>Soundness.</b> A pessimistic distribution yields true upper bounds, an optimistic one true lower
 * bounds, and nothing in between: every numerical error is bounded a priori and charged in the safe
 * direction — the FFT's round-off (Higham's normwise bound), circular wrap-around, the truncation of the
 * window, the rounding of the tilted arrays and of every sum — or the query fails with
 * {@link org.dpopt.accounting.pld.PldGridTooLargeException}, upon which the accountant coarsens the grid
 * (still sound) or reports another bound.
 *
 * <p><b>Inside</b> (package-private): the composition and its queries ({@code Composition}); the
 * saddle-point tilted FFT on a window ({@code TiltedFft}, with the forward spectra in
 * {@code TiltedSpectra} and the pointwise power in {@code SpectralPower}) and the bounds drawn from one
 * tilt ({@code TiltBounds}), following Koskela, Jälkö and Honkela ("Computing Tight Differential Privacy
 * Guarantees Using FFT", AISTATS 2020) with exponential tilting added; the convolution-free Chernoff
 * bound ({@code ChernoffBound}); the discretization ({@code LossDiscretizer}); the exact single-step
 * subsampled Gaussian ({@link org.dpopt.accounting.pld.PoissonGaussianExact}). Derivations:
 * {@code theory-notes/accounting.md} §2–§4.
 */
package org.dpopt.accounting.pld;
