/**
 * The run core, for optimizer implementations (users of the library do not need it).
 *
 * <p>{@link org.dpopt.optim.core.PrivateRun} is the one place where a noisy release happens: each
 * release method adds noise and records the release's {@code DpEvent} in one call (the noise is drawn
 * at the event's own noise multiplier), and {@code finish} checks at run time that the recorded ledger
 * equals the plan's statement and that a calibrated plan stayed within its budget.
 * {@link org.dpopt.optim.core.OptimizerBuilder} carries what every builder shares:
 * {@link org.dpopt.optim.core.RunOptions} (non-private diagnostics on or off, a
 * {@link org.dpopt.optim.core.ReleaseObserver} for audits and teaching) and the audit-only
 * {@link org.dpopt.optim.core.Mutation}s, the deliberately broken variants an empirical privacy audit
 * must catch. {@link org.dpopt.optim.core.AccountedBuilder} and
 * {@link org.dpopt.optim.core.PresetBuilder} add the accountant and the preset, declared once for the
 * optimizers that have them.
 */
package org.dpopt.optim.core;
