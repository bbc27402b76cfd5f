package org.dpopt.optim;

import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * What a run returns, in two parts that must not be confused.
 *
 * <p><b>The private release</b> — covered by the privacy report:
 * <ul>
 * <li>{@link #solution()}: the released model;</li>
 * <li>{@link #privacy()}: the accountant's certificate for the recorded ledger;</li>
 * <li>{@link #parameters()} and {@link #plan()}: quantities planned from public constants before any
 * data was read (noise multiplier, steps, step sizes, declared n and d) — publishing them costs
 * nothing beyond what the plan already assumes public;</li>
 * <li>{@link #ledger()} (equal to the plan's statement) and {@link #noise()} (secure or seeded).</li>
 * </ul>
 *
 * <p><b>Non-private diagnostics</b> — {@link #nonPrivateDiagnostics()}: computed from the raw data or
 * the realized randomness (training loss, realized gradient counts, clipped fractions, solver
 * iterations). They are <em>not</em> covered by the report, are computed only when the optimizer was
 * built with {@code diagnostics(true)}, and must not be released as if they were private.
 *
 * @param solution the released parameter vector (d×1; copied in, and copied out by {@link #solution()})
 * @param privacy the privacy report for the ledger
 * @param plan the plan that was run
 * @param ledger the canonical event recorded during the run
 * @param noise "secure" or the seeded-mode warning
 * @param nonPrivateDiagnostics non-private diagnostics (empty unless asked for)
 * @param secureDraws the coordinates and candidates the run's secure noise released (a public count: its
 *                    implementation δ grows with it, see {@code NoiseSource#implementationDelta}); 0 for
 *                    seeded noise
 */
public record OptimizationResult(DMatrixRMaj solution, PrivacyReport privacy, RunPlan plan, DpEvent ledger,
        String noise, Diagnostics nonPrivateDiagnostics, long secureDraws) {

    /** Creates a result (for the run core); validates and copies the solution. */
    public OptimizationResult {
        solution = Checks.notNull("solution", solution).copy();
        Checks.allNotNull("privacy", privacy, "plan", plan, "ledger", ledger, "noise", noise, "diagnostics",
                nonPrivateDiagnostics);
        if (secureDraws < 0) {
            throw Checks.fail("secureDraws", "non-negative", secureDraws);
        }
    }

    /** A copy of the released model. */
    @Override
    public DMatrixRMaj solution() {
        return solution.copy();
    }

    /** Planned public parameters. */
    public RunParameters parameters() {
        return plan.parameters();
    }

    /** The planned number of steps (public; 0 if the algorithm has no step schedule). */
    public long steps() {
        Object t = plan.parameters().get(Param.STEPS);
        return t instanceof Number x ? x.longValue() : 0;
    }

    @Override
    public String toString() {
        return "OptimizationResult[" + plan.algorithm() + ", privacy=" + privacy + ", parameters="
                + plan.parameters() + ", noise=" + noise + "]";
    }
}
