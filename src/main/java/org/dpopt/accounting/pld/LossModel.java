package org.dpopt.accounting.pld;

/**
 * The privacy-loss random variable L = ln(p(X)/q(X)) of an ordered pair of distributions (P, Q) with
 * no mass at ±∞, described by its tail functions under both P and Q: the extension point for putting
 * a new mechanism on the grid ({@link PrivacyLossDistributions#fromLossModel}). Tails must be exact
 * closed forms of the mechanism (never estimated from data). Implementations must
 * compute each tail <em>directly</em> (not as one minus the other) so that tiny tails keep their
 * relative precision.
 *
 * <p>Under Q the same variable has Q(L ∈ I) = E_P[e^{−L}; L ∈ I] on every set of finite losses;
 * this is what connect-the-dots discretization needs.
 */
public interface LossModel {

    /** P(L &gt; l). */
    double upperP(double l);

    /** P(L ≤ l). */
    double lowerP(double l);

    /** Q(L &gt; l). */
    double upperQ(double l);

    /** Q(L ≤ l). */
    double lowerQ(double l);

    /** A loss value near the middle of P's loss distribution (a starting point for tail searches). */
    double center();

    /** The infimum of the support of L under P; by default −∞ (unbounded below). */
    default double supportLow() {
        return Double.NEGATIVE_INFINITY;
    }

    /** The supremum of the support of L under P; by default +∞ (unbounded above). */
    default double supportHigh() {
        return Double.POSITIVE_INFINITY;
    }

    /** A typical scale of L under P (used only to start tail searches). */
    double scale();

    /**
     * P- and Q-tails at l in one call (implementations may share work): {@code out[0]} = P(L &gt; l) if
     * {@code upperP} else P(L ≤ l); {@code out[1]} likewise for Q.
     */
    default void tails(double l, boolean upperP, boolean upperQ, double[] out) {
        out[0] = upperP ? upperP(l) : lowerP(l);
        out[1] = upperQ ? upperQ(l) : lowerQ(l);
    }
}
