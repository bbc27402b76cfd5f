/**
 * Empirical privacy auditing: run an optimizer many times on two neighbouring datasets, attack each
 * run with a test statistic, and turn the attack's success into a statistically valid lower bound on
 * ε. If the bound exceeds the claimed ε, the implementation is not what its privacy report says.
 *
 * <p>The pieces:
 * <ul>
 * <li>{@link org.dpopt.audit.Canaries} and {@link org.dpopt.audit.NeighbouringPair}: worst-case canary
 * records and the pairs (add/remove-one, zero-out, replace-one) built around them;</li>
 * <li>{@link org.dpopt.audit.AuditStatistic} / {@link org.dpopt.audit.Statistics}: white-box statistics
 * on the noisy releases an optimizer reports to its {@code ReleaseObserver} (the log-likelihood ratio of
 * the Poisson-subsampled Gaussian, its mixture over the parts of a parallel composition, the release of
 * one part, the shuffled-epoch ratio, the largest release, selections, with a test fixed in advance
 * where one is known) and black-box ones on the released model (projection, shrinkage, canary loss);</li>
 * <li>{@link org.dpopt.audit.EpsilonLowerBound}: thresholds chosen on one half of the runs, evaluated on
 * the other with Clopper–Pearson bounds ({@link org.dpopt.audit.ClopperPearson}) in the (ε, δ)-DP
 * inequality, and the Gaussian-DP μ estimate ({@link org.dpopt.audit.GaussianDp});</li>
 * <li>{@link org.dpopt.audit.LedgerFamily}: the ledger test, the same error rates against the recorded
 * ledger's whole privacy profile;</li>
 * <li>{@link org.dpopt.audit.OptimizerAudit}: the seeded runs and the analysis, giving an
 * {@link org.dpopt.audit.AuditResult};</li>
 * <li>{@link org.dpopt.audit.Audits}: a cheap configuration of every optimizer, and for each deliberately
 * broken variant ({@code org.dpopt.optim.core.Mutation}) the one that exposes it; the configurations
 * with many canaries per run (each on its own coordinate, each its own trial) are in
 * {@code MultiCanaryAudits}, and give the audits their power at CI size.</li>
 * </ul>
 * The package uses the public optimizer and accountant API only. What an audit can and cannot prove is
 * in {@code theory-notes/auditing.md}; measured bounds are in {@code validation/auditing.md}.
 */
package org.dpopt.audit;
