/**
 * The distributed engine: the same optimizers, samplers, noise and accountants as in memory, with the
 * data-dependent sums computed by Apache Spark executors. The only package that imports Spark (a
 * {@code provided} dependency: a cluster or {@code ./dpopt} brings it).
 *
 * <h2>What runs where</h2>
 * <ul>
 * <li><b>Executors</b>: reading and validating rows ({@link org.dpopt.spark.SparkData}: CSV, LIBSVM,
 * Parquet, with the in-memory readers' rules and per-row projection), building keyed batch plans
 * (map → group by step → truncate, {@code SparkBatchPlan}), per-step clipped batch sums with the shared
 * kernel ({@link org.dpopt.spark.SparkBatches}), full-pass sums by {@code treeAggregate}
 * ({@link org.dpopt.spark.SparkPasses}). None of these is released.</li>
 * <li><b>Driver</b>: the plan key (drawn from the run's generator, secure by default, never printed),
 * the run core ({@code PrivateRun}: every noisy release and its ledger entry), updates, the accountant
 * and the report.</li>
 * </ul>
 *
 * <p>Agreement: with the same generator, the keyed samplers give the same batches in memory and on
 * Spark, and DP-SGD and noisy Frank–Wolfe give the same model (to 1e-9) and the same report; the argument
 * that the keyed plan has the law (and so the accounting) of Poisson / truncated Poisson sampling is in
 * {@code theory-notes/distributed.md}.
 */
package org.dpopt.spark;
