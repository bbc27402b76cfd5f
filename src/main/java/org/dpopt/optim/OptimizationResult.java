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
 */
public final class OptimizationResult {
    private final DMatrixRMaj solution;
    private final PrivacyReport privacy;
    private final RunPlan plan;
    private final DpEvent ledger;
    private final String noise;
    private final Diagnostics diagnostics;

    /**
     * Creates a result (for the run core); the solution is copied.
     *
     * @param solution the released parameter vector (d×1)
     * @param privacy the report for the ledger
     * @param plan the plan that was run
     * @param ledger the canonical event recorded during the run
     * @param noise the noise mode's description
     * @param diagnostics non-private diagnostics (possibly none)
     */
    public OptimizationResult(DMatrixRMaj solution, PrivacyReport privacy, RunPlan plan, DpEvent ledger,
            String noise, Diagnostics diagnostics) {
        this.solution = Checks.notNull("solution", solution).copy();
        this.privacy = Checks.notNull("privacy", privacy);
        this.plan = Checks.notNull("plan", plan);
        this.ledger = Checks.notNull("ledger", ledger);
        this.noise = Checks.notNull("noise", noise);
        this.diagnostics = Checks.notNull("diagnostics", diagnostics);
    }

    /** A copy of the released model. */
    public DMatrixRMaj solution() {
        return solution.copy();
    }

    /** The privacy report. */
    public PrivacyReport privacy() {
        return privacy;
    }

    /** The plan that was run. */
    public RunPlan plan() {
        return plan;
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

    /** The canonical event recorded during the run. */
    public DpEvent ledger() {
        return ledger;
    }

    /** "secure" or the seeded-mode warning. */
    public String noise() {
        return noise;
    }

    /** Non-private diagnostics (empty unless asked for). */
    public Diagnostics nonPrivateDiagnostics() {
        return diagnostics;
    }

    @Override
    public String toString() {
        return "OptimizationResult[" + plan.algorithm() + ", privacy=" + privacy + ", parameters="
                + plan.parameters() + ", noise=" + noise + "]";
    }
}
