/**
 * Privacy accounting: what a run released, as a tree of events, and what that tree costs in (ε, δ).
 *
 * <p><b>The soundness rule.</b> Every accountant returns a <em>true upper bound</em> on the privacy loss
 * of the events it is given, or refuses: an {@link org.dpopt.accounting.UnsupportedEventException} for
 * an event it has no bound for, an {@link IllegalArgumentException} for a query it cannot answer
 * soundly. Numerical error is charged in the safe direction, never rounded away. Lower bounds exist
 * (the {@code epsilonLower} of a report, the {@code --bound lower} of the CLI) only to show how tight an
 * upper bound is; they are never guarantees.
 *
 * <p><b>Events.</b> {@link org.dpopt.accounting.DpEvent} is a sealed set of records: releases
 * ({@link org.dpopt.accounting.GaussianEvent}, {@link org.dpopt.accounting.LaplaceEvent},
 * {@link org.dpopt.accounting.EpsilonDeltaEvent}, the sampler events
 * {@link org.dpopt.accounting.AblqStepEvent} and {@link org.dpopt.accounting.TruncatedPoissonEvent})
 * and their combinators (Poisson subsampling, sequential, self- and parallel composition).
 * {@link org.dpopt.accounting.PrivacyLedger} records what a run released;
 * {@link org.dpopt.accounting.DpEvents#normalize} puts a tree in canonical form.
 *
 * <p><b>Accountants</b> ({@link org.dpopt.accounting.PrivacyAccountant}), each with the neighbouring
 * relation its bounds hold under ({@link org.dpopt.accounting.NeighboringRelation}):
 * <ul>
 *   <li>{@link org.dpopt.accounting.PldAccountant}: privacy loss distributions on a grid, composed by an
 *   exponentially tilted FFT with every error charged (Koskela, Jälkö and Honkela, "Computing Tight
 *   Differential Privacy Guarantees Using FFT", AISTATS 2020; Doroshenko, Ghazi, Kamath, Kumar and
 *   Manurangsi, "Connect the Dots: Tighter Discrete Approximations of Privacy Loss Distributions",
 *   PoPETs 2022); the engine is {@link org.dpopt.accounting.pld}. Internally: the guarded queries, the
 *   PLD building and grid coarsening ({@code PldEvaluator}), the closed-form cases
 *   ({@code ClosedFormCase}).</li>
 *   <li>{@link org.dpopt.accounting.RdpAccountant}: Rényi DP (Mironov, "Rényi Differential Privacy",
 *   CSF 2017), the subsampled Gaussian of Mironov, Talwar and Zhang (arXiv:1908.10530, 2019), the
 *   conversion of Balle, Barthe, Gaboardi, Hsu and Sato ("Hypothesis Testing Interpretations and Rényi
 *   Differential Privacy", AISTATS 2020); internally the order grid ({@code RdpOrders}), the per-event
 *   curves ({@code RdpCurves}) and the subsampled-Gaussian RDP ({@code SampledGaussianRdp}).</li>
 *   <li>{@link org.dpopt.accounting.AblqAccountant}: sampler-aware DP-SGD accounting (Chua, Ghazi,
 *   Kamath, Kumar, Manurangsi, Sinha and Zhang, "Scalable DP-SGD: Shuffling vs. Poisson Subsampling",
 *   NeurIPS 2024), with {@link org.dpopt.accounting.ShuffleLowerBound} and
 *   {@link org.dpopt.accounting.TruncationTerm}.</li>
 *   <li>{@link org.dpopt.accounting.BasicCompositionAccountant} and
 *   {@link org.dpopt.accounting.AdvancedCompositionAccountant}: composition theorems (Dwork, Rothblum
 *   and Vadhan, FOCS 2010; Kairouz, Oh and Viswanath, ICML 2015).</li>
 * </ul>
 *
 * <p><b>Around them.</b> {@link org.dpopt.accounting.GaussianMechanism}: the exact Gaussian curve (Balle
 * and Wang, "Improving the Gaussian Mechanism for Differential Privacy", ICML 2018).
 * {@link org.dpopt.accounting.LowerBounds}: the closed-form lower bounds every upper bound is checked
 * against. {@link org.dpopt.accounting.Calibration}: the smallest noise multiplier (or largest number of
 * steps or sampling rate) that meets a budget, always the privacy-safe end of a verified bracket.
 * {@link org.dpopt.accounting.PrivacyReport}: a bound with its {@link org.dpopt.accounting.Bound} kind
 * and notes. Derivations: {@code theory-notes/accounting.md}.
 */
package org.dpopt.accounting;
