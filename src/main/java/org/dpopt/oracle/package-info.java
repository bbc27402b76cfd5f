/**
 * Per-example gradients with a declared norm bound, and the one clip-and-sum kernel
 * ({@link org.dpopt.oracle.GradientOracle#addClippedBatch}) every per-example algorithm uses.
 * {@link org.dpopt.oracle.ExactGradientOracle} (with a fast path for generalized linear losses: the
 * gradient norm is |φ′|·‖x‖ from the precomputed row norm); the Moreau-smoothed oracles of non-smooth
 * losses: {@link org.dpopt.oracle.GllBisectionProx} (the O(log 1/α) bisection prox of a GLL, Bassily,
 * Guzmán, Menart, NeurIPS 2021, arXiv:2107.05585, Algorithm 1) and
 * {@link org.dpopt.oracle.MoreauEnvelopeOracle} (an approximate prox by inner subgradient descent, for
 * any convex Lipschitz loss). A smoothed loss hands each run its own oracle
 * ({@link org.dpopt.oracle.SmoothedLoss}), so losses stay immutable and thread-safe. The data access of
 * full-gradient algorithms is {@link org.dpopt.oracle.DataPasses} (means over all rows of a GLL's loss,
 * gradient and Hessian, and rows by id), in memory {@link org.dpopt.oracle.DatasetPasses}, whose static
 * kernels every engine runs on its blocks; per-step clipped batch sums are
 * {@link org.dpopt.oracle.BatchGradientSource}.
 */
package org.dpopt.oracle;
