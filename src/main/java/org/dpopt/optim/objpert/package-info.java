/**
 * Objective perturbation for generalized linear losses: the private minimizer of a randomly
 * perturbed, regularised empirical risk J(w) = F̂(w) + ⟨G, w⟩/n + λ‖w‖².
 *
 * <ul>
 * <li>{@link org.dpopt.optim.objpert.ObjectivePerturbation} — exact minimization (CLI
 * {@code objective-perturbation}): Chaudhuri, Monteleoni, Sarwate, JMLR 2011; Kifer, Smith, Thakurta,
 * COLT 2012; Bassily, Feldman, Talwar, Thakurta, NeurIPS 2019 (arXiv:1908.09970), Algorithm 2.</li>
 * <li>{@link org.dpopt.optim.objpert.ApproximateObjectivePerturbation} — SVRG to a certified accuracy
 * plus Gaussian output noise (CLI {@code objective-perturbation-svrg}): the same NeurIPS 2019 paper,
 * §5, and Iyengar et al., IEEE S&amp;P 2019.</li>
 * <li>{@link org.dpopt.optim.objpert.ObjectivePerturbationNoise} — σ_G rules and the theorem's λ.</li>
 * </ul>
 *
 * <p>Data access is {@link org.dpopt.oracle.DataPasses} only (means over the rows of loss, gradient and
 * Hessian, and rows by id for SVRG's inner steps), so the same solvers run on in-memory data
 * ({@code run(Problem, …)}) and on a distributed engine ({@code run(DataPasses, shape, plan, rng)}).
 *
 * <p>Privacy relation: replace-one with a public n. Every plan is made from the public
 * {@code ProblemShape} (n, d, R, the loss's declared L and β, the domain) and the budget; the noise is
 * drawn through the run core. Solver internals (the perturbed objective and its certificates, the
 * certified Newton solver, SVRG) are package-private. Derivations: {@code theory-notes/objective-perturbation.md}.
 */
package org.dpopt.optim.objpert;
