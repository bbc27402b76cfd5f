/**
 * Batch samplers for DP-SGD, each coupled to its own privacy accounting.
 *
 * <h2>The ABLQ view</h2>
 * Following Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha, Zhang ("Scalable DP-SGD: Shuffling vs.
 * Poisson Subsampling", NeurIPS 2024, arXiv:2411.04205, Algorithm 2), DP-SGD is post-processing of
 * the <em>adaptive batch linear queries</em> mechanism ABLQ_𝔅: a batch sampler 𝔅 produces
 * S_1, …, S_T ⊆ [n]; at step t an adaptively chosen query ψ_t maps each record into the unit ℓ2 ball
 * (the clipped gradient at the current iterate divided by C) and the mechanism releases
 * g_t = Σ_{i∈S_t} ψ_t(x_i) + N(0, σ²I). {@link org.dpopt.optim.sgd.NoisySgd} is exactly this loop followed
 * by w_t = Π_W(w_{t−1} − η·C·g_t / b̄) with a <em>public</em> normalizer b̄
 * ({@link org.dpopt.sampling.BatchSampler#normalizer}); dividing by the realized batch size would not
 * be post-processing.
 *
 * <p>The privacy of ABLQ depends only on the sampler and σ, so each {@link
 * org.dpopt.sampling.BatchSampler} states its own event ({@code stepEvent}, recorded per step in the
 * ledger, and {@code privacyEvent}, the statement before the run) and its neighbouring relation:
 *
 * <table>
 *   <caption>Samplers and their accounting</caption>
 *   <tr><th>sampler</th><th>event</th><th>relation</th><th>upper bound</th><th>lower bound</th></tr>
 *   <tr><td>{@link org.dpopt.sampling.PoissonSampler}</td><td>PoissonSampled(q, Gaussian)</td>
 *       <td>add/remove</td><td>PLD / RDP</td><td>PLD (floor)</td></tr>
 *   <tr><td>{@link org.dpopt.sampling.TruncatedPoissonSampler}</td><td>TruncatedPoisson</td>
 *       <td>zero-out</td><td>Poisson + (1+e^ε)η</td><td>—</td></tr>
 *   <tr><td>{@link org.dpopt.sampling.FixedSizeBatchSampler#deterministic}</td><td>AblqStep(DETERMINISTIC)</td>
 *       <td>zero-out</td><td>Gaussian, sensitivity √E (exact)</td><td>same</td></tr>
 *   <tr><td>{@link org.dpopt.sampling.FixedSizeBatchSampler#persistentShuffle}</td><td>AblqStep(PERSISTENT_SHUFFLE)</td>
 *       <td>zero-out</td><td>deterministic</td><td>max statistic at σ/√E (optimistic)</td></tr>
 *   <tr><td>{@link org.dpopt.sampling.FixedSizeBatchSampler#dynamicShuffle}</td><td>AblqStep(DYNAMIC_SHUFFLE)</td>
 *       <td>zero-out</td><td>deterministic</td><td>E-fold composed max statistic (optimistic)</td></tr>
 * </table>
 *
 * The accounting itself is in {@link org.dpopt.accounting.AblqAccountant}; derivations are in
 * {@code theory-notes/batch-samplers.md}.
 *
 * <h2>Keyed plans (shared by memory and Spark)</h2>
 * {@link org.dpopt.sampling.BatchPlan} (Poisson / truncated Poisson: map by geometric skips over the
 * steps → group by step → truncate by keyed sort keys) and {@link org.dpopt.sampling.ShufflePlan}
 * (persistent / dynamic shuffles by keyed sort keys) are pure functions of a secret
 * {@link org.dpopt.sampling.PlanKey} and record ids, evaluated with AES as a pseudorandom function
 * ({@code KeyedUniforms}). The {@link org.dpopt.sampling.KeyedSampler}s
 * {@link org.dpopt.sampling.PlannedPoissonSampler} and {@link org.dpopt.sampling.PlannedShuffleSampler}
 * ({@code planned-poisson}, {@code planned-truncated-poisson}, {@code planned-shuffle-persistent},
 * {@code planned-shuffle-dynamic}) run them in memory and state the events of the sequential samplers
 * with the same law; the Spark engine evaluates the same functions on its executors, so the same key
 * gives the same batches ({@code theory-notes/distributed.md}).
 */
package org.dpopt.sampling;
