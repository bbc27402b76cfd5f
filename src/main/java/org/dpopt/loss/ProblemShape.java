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
 * @param dimension d ≥ 1 (declared: the number of features, never the largest index seen in a file)
 * @param rowNormBound R &gt; 0, the declared bound on every row's ℓ2 norm
 * @param loss the per-example loss (its constants are public)
 * @param domain the constraint set W
 * @param sizeDeclared true if n was declared by the user rather than read off the data
 */
public record ProblemShape(int size, int dimension, double rowNormBound, Loss loss,
        ConvexSet domain, boolean sizeDeclared) {

    /** Validates. */
    public ProblemShape {
        Checks.atLeastOne("dataset size n", size);
        Checks.atLeastOne("dimension d", dimension);
        Checks.positive("rowNormBound", rowNormBound);
        Checks.notNull("loss", loss);
        Checks.notNull("domain", domain);
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
        return new ProblemShape(size, dimension, rowNormBound, loss, other, sizeDeclared);
    }

    /** The same shape with another loss (e.g. a smoothed surrogate). */
    public ProblemShape withLoss(Loss other) {
        return new ProblemShape(size, dimension, rowNormBound, other, domain, sizeDeclared);
    }
}
