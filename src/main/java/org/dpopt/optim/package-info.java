/**
 * The optimizer API: what every private optimizer offers and returns.
 *
 * <ul>
 * <li>{@link org.dpopt.optim.PrivateOptimizer} — {@code plan(shape, budget)} from public quantities
 * only, then {@code run(problem, plan, rng)}; {@code optimize} does both.</li>
 * <li>{@link org.dpopt.optim.RunPlan} — the privacy statement (a {@code DpEvent}), the accountant that
 * certifies it, and the planned public {@link org.dpopt.optim.RunParameters} (keys:
 * {@link org.dpopt.optim.Param}).</li>
 * <li>{@link org.dpopt.optim.OptimizationResult} — the private release (model, report, planned
 * parameters) apart from the non-private {@link org.dpopt.optim.Diagnostics} (keys:
 * {@link org.dpopt.optim.Diagnostic}), which exist only when asked for.</li>
 * <li>{@link org.dpopt.optim.Optimizers} — the catalog: each algorithm's name, summary and builder.</li>
 * </ul>
 *
 * <p>The algorithms live in one sub-package per family — {@code optim.sgd} (DP-SGD, the BFTT19 preset,
 * the non-private baseline), {@code optim.smoothing} (Phased-SGD, A_ProxGD), {@code optim.objpert}
 * (objective perturbation, exact and approximate), {@code optim.frankwolfe} (noisy, variance-reduced
 * and stochastic Frank–Wolfe), {@code optim.mirror} (proximally guided mirror descent) — all on the run
 * core {@code optim.core}, the one place where a noisy release happens.
 */
package org.dpopt.optim;
