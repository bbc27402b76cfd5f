package org.dpopt.accounting.pld;

/**
 * Thrown when a PLD operation would need more than {@link PrivacyLossDistribution#MAX_GRID_POINTS}
 * grid points (or cannot be bounded at this grid); the caller may retry with a coarser discretization
 * interval or fall back to another valid bound.
 */
public final class PldGridTooLargeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The number of points requested and the limit (0 if not a size problem). */
    private final long points;
    private final long limit;

    /** Creates the exception for a requested number of points. */
    public PldGridTooLargeException(long points) {
        this(points, PrivacyLossDistribution.MAX_GRID_POINTS);
    }

    /** Creates the exception for a requested number of points above a limit. */
    public PldGridTooLargeException(long points, long limit) {
        super("PLD grid size must be at most " + limit + " but was " + points + " (use a larger discretization interval)");
        this.points = points;
        this.limit = limit;
    }

    /** How many times coarser the grid must be for the request to fit (≥ 1; 1 if unknown). */
    public double coarseningNeeded() {
        return points > 0 && limit > 0 ? Math.max(1, (double) points / limit) : 1;
    }

    /** Creates the exception with a reason. */
    public PldGridTooLargeException(String reason) {
        super(reason);
        this.points = 0;
        this.limit = 0;
    }
}
