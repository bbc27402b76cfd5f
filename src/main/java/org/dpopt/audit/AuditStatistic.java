package org.dpopt.audit;

/**
 * A test statistic: one number per run, larger when the run looks like it saw the canary. It must be
 * fixed before the runs are made (it may use public constants of the configuration: the canary, the
 * noise scales and sampling rates the ledger records, never the data of other runs).
 */
public interface AuditStatistic {

    /** A short name for reports, e.g. {@code "llr-poisson-gaussian"}. */
    String name();

    /**
     * True if the statistic reads the intermediate noisy releases (white-box: the threat model of the
     * privacy proof, which covers every release); false if it reads only the final model (black-box).
     */
    boolean whiteBox();

    /** The score of one run (for one canary: one trial). */
    double score(RunView run);

    /**
     * A test fixed before the runs ("canary present" iff score &gt; τ), or NaN (the default) to choose the
     * threshold on the selection half. With a fixed test every run is an evaluation run: there is no
     * choice, hence nothing to select.
     */
    default double fixedThreshold() {
        return Double.NaN;
    }
}
