package org.dpopt.accounting.pld;

/**
 * Thrown when a PLD operation would need more than {@link PrivacyLossDistribution#MAX_GRID_POINTS}
 * grid points; the caller may retry with a coarser discretization interval.
 */
public final class PldGridTooLargeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception for a requested number of points. */
    public PldGridTooLargeException(long points) {
        super("PLD grid size must be at most " + PrivacyLossDistribution.MAX_GRID_POINTS + " but was " + points
                + " (use a larger discretization interval)");
    }
}
