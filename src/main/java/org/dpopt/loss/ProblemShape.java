package org.dpopt.loss;

import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;

/**
 * The public face of a problem: everything an optimizer may use to plan a run (schedules, step
 * sizes, sensitivities, calibrated noise) and nothing that reads the data.
 *
 * <p>Planning from a {@code ProblemShape} instead of a {@link Problem} makes "sensitivities and
 * schedules come from declared public constants" a property of the types: a plan cannot depend on a
 * data statistic because it never sees the data.
 *
 * @param size n, the dataset size the plan is made for. Under add/remove-one neighbouring this number
 *             is <em>treated as public</em>: either declared in advance ({@code sizeDeclared}) or the
 *             actual size, which the report then says is treated as public
 * @param dimension d ≥ 1 (declared: the number of features, never the largest index seen in a file; with an
 *                  intercept, plus its column)
 * @param rowNormBound R &gt; 0, the declared bound on every row's ℓ2 norm
 * @param loss the per-example loss (its constants are public)
 * @param domain the constraint set W
 * @param sizeDeclared true if n was declared by the user rather than read off the data
 * @param interceptScale c &gt; 0 if the last of the d columns is an intercept's constant c (then
 *                       {@code dimension} counts that column and {@code rowNormBound} is √(R² + c²)), 0
 *                       for no intercept
 */
public record ProblemShape(int size, int dimension, double rowNormBound, Loss loss,
        ConvexSet domain, boolean sizeDeclared, double interceptScale) {

    /** Validates. */
    public ProblemShape {
        Checks.atLeastOne("dataset size n", size);
        Checks.atLeastOne("dimension d", dimension);
        Checks.positive("rowNormBound", rowNormBound);
        Checks.allNotNull("loss", loss, "domain", domain);
        Checks.nonNegative("interceptScale", interceptScale);
    }

    /** A shape without an intercept. */
    public ProblemShape(int size, int dimension, double rowNormBound, Loss loss, ConvexSet domain,
            boolean sizeDeclared) {
        this(size, dimension, rowNormBound, loss, domain, sizeDeclared, 0);
    }

    /** True if the last column is an intercept's constant. */
    public boolean hasIntercept() {
        return interceptScale > 0;
    }

    /** The length of the parameter vector: m·d for a loss with m outputs (d for a scalar model). */
    public int parameterDimension() {
        return loss.parameterDimension(dimension);
    }

    /**
     * Refuses a loss with several outputs (a k-class model) for an algorithm whose analysis is for a
     * scalar model ⟨w, x⟩.
     *
     * @param algorithm the algorithm's name, for the message
     */
    public void requireScalarModel(String algorithm) {
        if (loss.outputs() != 1) {
            throw Checks.fail("loss", "a single-score loss for " + algorithm + " (the " + loss.outputs()
                    + "-class multinomial loss runs with dp-sgd, nsgd and non-private)", loss.name());
        }
    }

    /** L: the per-example gradient-norm bound from the loss and the declared row-norm bound. */
    public double lipschitz() {
        return loss.lipschitz(rowNormBound);
    }

    /** β: the per-example smoothness (+∞ for non-smooth losses). */
    public double smoothness() {
        return loss.smoothness(rowNormBound);
    }

    /** The same shape with another constraint set. */
    public ProblemShape withDomain(ConvexSet other) {
        return new ProblemShape(size, dimension, rowNormBound, loss, other, sizeDeclared, interceptScale);
    }

    /** The same shape with another loss (e.g. a smoothed surrogate). */
    public ProblemShape withLoss(Loss other) {
        return new ProblemShape(size, dimension, rowNormBound, other, domain, sizeDeclared, interceptScale);
    }
}
