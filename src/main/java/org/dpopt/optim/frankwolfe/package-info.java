/**
 * Private Frank–Wolfe methods: projection-free optimization over a polytope or an ℓp ball, where each
 * step moves toward a point chosen by a linear minimization oracle, and only that choice (or the
 * estimate it is made from) is privatized.
 *
 * <table>
 *   <caption>The optimizers, their releases and their privacy statements (replace-one, but for the
 *   practical defaults on Poisson batches: add/remove-one)</caption>
 *   <tr><th>class</th><th>paper</th><th>release per step</th><th>statement</th><th>default accountant</th></tr>
 *   <tr><td>{@link org.dpopt.optim.frankwolfe.NoisyFrankWolfe}</td><td>BGM21 Alg. 3 (TTZ15)</td>
 *       <td>paper: report-noisy-max over the J vertices, full-batch scores; practical default: the
 *       vertex of least score for a Poisson batch's noisy gradient sum</td><td>T × (ε0, 0); practical:
 *       T × PoissonSampled(q, Gaussian(z))</td><td>advanced composition; practical: PLD</td></tr>
 *   <tr><td>{@link org.dpopt.optim.frankwolfe.VarianceReducedFrankWolfe}</td><td>BGM21 Alg. 4</td>
 *       <td>paper: report-noisy-max on a recursive one-pass estimate; practical default: the vertex of
 *       least score for a recursive estimate built from Poisson batches' noisy clipped sums</td>
 *       <td>Parallel(R × [m × (ε0, 0)]); practical: T × PoissonSampled(q, Gaussian(z))</td>
 *       <td>advanced composition; practical: PLD</td></tr>
 *   <tr><td>{@link org.dpopt.optim.frankwolfe.NoisyStochasticFrankWolfe}</td><td>BGM21 Alg. 5</td>
 *       <td>Gaussian noise on the same estimate, then the ℓp-ball LMO</td>
 *       <td>Parallel(R × [m × Gaussian(z)]) per pass; {@code passes(K)} with one full-batch round:
 *       K × Gaussian(z); the practical default: T × PoissonSampled(q, Gaussian(z))</td><td>RDP;
 *       practical: PLD</td></tr>
 * </table>
 *
 * <p>Papers: Bassily, Guzmán, Menart, "Differentially Private Stochastic Optimization: New Results in
 * Convex and Non-Convex Settings", NeurIPS 2021, arXiv:2107.05585 (BGM21); Talwar, Thakurta, Zhang,
 * "Nearly-Optimal Private LASSO", NeurIPS 2015 (TTZ15). The sensitivities, schedules and privacy
 * arguments as implemented here are derived in {@code theory-notes/frank-wolfe.md}.
 *
 * <p>The practical defaults of noisy-frank-wolfe and noisy-sfw share one schedule,
 * {@code PoissonBatchFrankWolfe}: DP-SGD's Poisson batches and accounting with Frank–Wolfe's step.
 *
 * <p>Every plan is made from the public shape only (n, d, the declared row bound R, the loss's
 * constants, the constraint set, and an optional declared ℓ∞ row bound); every selection goes through
 * {@link org.dpopt.optim.core.PrivateRun#reportNoisyMax} and every Gaussian release through
 * {@link org.dpopt.optim.core.PrivateRun#gaussian}, and the rounds of the one-pass methods are the parts
 * of a {@link org.dpopt.optim.core.PrivateRun#parallel} composition: they read disjoint segments of a
 * data-independent read order ({@link org.dpopt.sampling.RecordOrder#blockShuffle}), each record at
 * most once per pass (several passes, {@code passes(K)}, compose sequentially). The one-pass methods'
 * paper preset releases the iterate at a uniformly random step; its index is a
 * non-private diagnostic, as are the Frank–Wolfe gap, the training loss and the population risk,
 * computed only when diagnostics are on.
 */
package org.dpopt.optim.frankwolfe;
