package org.dpopt.optim;

import java.util.Map;
import java.util.TreeMap;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * What a run returns: the private solution, its privacy report, the recorded ledger, cost counters
 * and non-private diagnostics.
 *
 * <p>{@code nonPrivateDiagnostics} are computed from the raw data (e.g. training loss): they are
 * <em>not</em> covered by the privacy report and must not be released as if they were.
 */
public final class OptimizationResult {
    private final DMatrixRMaj solution;
    private final PrivacyReport privacy;
    private final DpEvent ledger;
    private final long steps;
    private final long gradientEvaluations;
    private final Map<String, Double> parameters;
    private final Map<String, Double> nonPrivateDiagnostics;

    /**
     * Creates a result; the solution and maps are copied.
     *
     * @param solution the released parameter vector (d×1)
     * @param privacy the privacy report for the ledger
     * @param ledger the canonical event actually recorded during the run
     * @param steps iterations performed
     * @param gradientEvaluations per-example gradient evaluations (scalar subgradient calls for GLLs)
     * @param parameters the hyperparameters used (e.g. noise multiplier, learning rate) — public
     * @param nonPrivateDiagnostics quantities computed on raw data (not private)
     */
    public OptimizationResult(DMatrixRMaj solution, PrivacyReport privacy, DpEvent ledger, long steps,
            long gradientEvaluations, Map<String, Double> parameters, Map<String, Double> nonPrivateDiagnostics) {
        this.solution = Checks.notNull("solution", solution).copy();
        this.privacy = Checks.notNull("privacy", privacy);
        this.ledger = Checks.notNull("ledger", ledger);
        this.steps = steps;
        this.gradientEvaluations = gradientEvaluations;
        this.parameters = Map.copyOf(new TreeMap<>(parameters));
        this.nonPrivateDiagnostics = Map.copyOf(new TreeMap<>(nonPrivateDiagnostics));
    }

    /** A copy of the solution. */
    public DMatrixRMaj solution() {
        return solution.copy();
    }

    /** The privacy report. */
    public PrivacyReport privacy() {
        return privacy;
    }

    /** The canonical event recorded during the run. */
    public DpEvent ledger() {
        return ledger;
    }

    /** Iterations. */
    public long steps() {
        return steps;
    }

    /** Gradient evaluations. */
    public long gradientEvaluations() {
        return gradientEvaluations;
    }

    /** Public hyperparameters actually used. */
    public Map<String, Double> parameters() {
        return parameters;
    }

    /** Diagnostics computed on raw data (not private). */
    public Map<String, Double> nonPrivateDiagnostics() {
        return nonPrivateDiagnostics;
    }

    @Override
    public String toString() {
        return "OptimizationResult[steps=" + steps + ", gradientEvaluations=" + gradientEvaluations
                + ", privacy=" + privacy + ", parameters=" + parameters + "]";
    }
}
