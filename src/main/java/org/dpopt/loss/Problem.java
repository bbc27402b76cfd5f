package org.dpopt.loss;

import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.ejml.data.DMatrixRMaj;

/**
 * An empirical risk minimization problem: minimize F̂(w) = (1/n) Σ f(w; z_i) over a convex set W.
 *
 * <p>The Lipschitz and smoothness constants are derived from the loss and the dataset's
 * <em>declared</em> row-norm bound — public constants, never data statistics.
 *
 * <p>The dataset size an optimizer plans with is {@link #shape()}{@code .size()}: the declared size
 * when one was given ({@link #withDeclaredSize}), else the actual number of rows, which is then
 * treated as public (reports under add/remove-one say so).
 *
 * <p><b>Intercept.</b> {@link #withIntercept(double)} fits a bias b with every score: each row x
 * becomes (x, c) for a public constant c &gt; 0, so ⟨w, x⟩ + b = ⟨(w, b/c), (x, c)⟩ and the declared
 * row-norm bound becomes √(R² + c²). Every optimizer then sees an ordinary problem in d + 1 dimensions
 * whose sensitivities follow from the larger bound, so its privacy argument holds unchanged (see
 * {@code theory-notes/intercept.md}); {@link #data()} is the augmented dataset. A constraint set that
 * fixes the sign of a coordinate (the simplex) is refused: the bias would be forced non-negative.
 *
 * <p>Labels are checked against the loss ({@link Loss#checkLabels}): a binary loss refuses labels
 * outside {0, 1} / {−1, +1}, a k-class loss labels outside 0..k−1.
 *
 * @param data the dataset (with the intercept's constant column last when {@code interceptScale > 0})
 * @param loss the per-example loss
 * @param domain the constraint set W
 * @param declaredSize the public dataset size declared in advance, or 0 if none was declared
 * @param interceptScale c &gt; 0, the constant of the intercept's column, or 0 for no intercept
 */
public record Problem(Dataset data, Loss loss, ConvexSet domain, int declaredSize, double interceptScale) {

    /** Validates non-null components, the declared size, the labels and the intercept's column. */
    public Problem {
        Checks.notNull("data", data);
        Checks.notNull("loss", loss);
        Checks.notNull("domain", domain);
        if (declaredSize < 0) {
            throw Checks.fail("declaredSize", "positive (or 0 for none)", declaredSize);
        }
        if (!(interceptScale >= 0) || Double.isInfinite(interceptScale)) {
            throw Checks.fail("interceptScale", "finite and positive (or 0 for no intercept)", interceptScale);
        }
        if (interceptScale > 0) {
            checkInterceptColumn(data, interceptScale);
            if (!domain.isSignSymmetric()) {
                throw Checks.fail("intercept", "off for the constraint set " + domain + " (it fixes the sign of a "
                        + "coordinate, so the bias could not take both signs; turn the intercept off)", "on");
            }
        }
        loss.checkLabels(data, "the data");
    }

    /** A problem without an intercept (the data's columns are all features). */
    public Problem(Dataset data, Loss loss, ConvexSet domain, int declaredSize) {
        this(data, loss, domain, declaredSize, 0);
    }

    private static void checkInterceptColumn(Dataset data, double c) {
        int last = data.dimension() - 1;
        for (int i = 0; i < data.size(); i++) {
            if (data.feature(i, last) != c) {
                throw Checks.fail("intercept column of row " + i, "the constant " + c, data.feature(i, last));
            }
        }
    }

    /** A problem with the given data, loss and domain; the actual size is treated as public. */
    public static Problem of(Dataset data, Loss loss, ConvexSet domain) {
        return new Problem(data, loss, domain, 0, 0);
    }

    /** An unconstrained problem. */
    public static Problem of(Dataset data, Loss loss) {
        return of(data, loss, ConvexSets.unconstrained());
    }

    /**
     * The same problem with a public dataset size N declared in advance: optimizers plan with N (so
     * no planned quantity reveals the actual size), and refuse where their schedule needs N to be
     * the exact number of rows.
     */
    public Problem withDeclaredSize(int n) {
        return new Problem(data, loss, domain, Checks.atLeastOne("declared dataset size", n), interceptScale);
    }

    /**
     * The same problem with an intercept whose column is the constant c: rows (x, c), declared bound
     * √(R² + c²) (see the class comment).
     *
     * @param c c &gt; 0, finite (a public constant; {@link #withIntercept()} uses c = R)
     * @throws IllegalArgumentException if the problem already has an intercept or its set fixes signs
     */
    public Problem withIntercept(double c) {
        if (hasIntercept()) {
            throw Checks.fail("intercept", "added once", "already on with scale " + interceptScale);
        }
        return new Problem(data.withConstantColumn(c), loss, domain, declaredSize, c);
    }

    /** {@link #withIntercept(double)} with the default scale {@link #defaultInterceptScale(double)}. */
    public Problem withIntercept() {
        return withIntercept(defaultInterceptScale(data.rowNormBound()));
    }

    /**
     * The default constant of the intercept's column, c = R/2 (a public rule: the augmented bound is
     * √(R² + c²) = 1.118·R). It was chosen on validation splits of the training files of the public
     * datasets (see {@code theory-notes/intercept.md}): a larger c spends more of a clip norm or a
     * sensitivity on the bias, a smaller one slows the bias's steps by c².
     */
    public static double defaultInterceptScale(double rowNormBound) {
        return 0.5 * Checks.positive("rowNormBound", rowNormBound);
    }

    /** True if the problem fits an intercept. */
    public boolean hasIntercept() {
        return interceptScale > 0;
    }

    /** The public shape a plan is made from (no data access). */
    public ProblemShape shape() {
        boolean declared = declaredSize > 0;
        return new ProblemShape(declared ? declaredSize : data.size(), data.dimension(), data.rowNormBound(),
                loss, domain, declared, interceptScale);
    }

    /** The actual number of rows (not public unless no size was declared). */
    public int size() {
        return data.size();
    }

    /** d: the number of columns the optimizer sees (the features, plus one with an intercept). */
    public int dimension() {
        return data.dimension();
    }

    /** The number of features of the original rows (d without the intercept's column). */
    public int featureDimension() {
        return hasIntercept() ? data.dimension() - 1 : data.dimension();
    }

    /** The length of the parameter vector: m·d for a loss with m outputs (d for a scalar model). */
    public int parameterDimension() {
        return loss.parameterDimension(data.dimension());
    }

    /** L: the per-example gradient-norm bound from the loss and the declared row-norm bound. */
    public double lipschitz() {
        return loss.lipschitz(data.rowNormBound());
    }

    /** β: the per-example smoothness (+∞ for non-smooth losses). */
    public double smoothness() {
        return loss.smoothness(data.rowNormBound());
    }

    /** F̂(w) (non-private: reads all data). */
    public double empiricalRisk(DMatrixRMaj w) {
        Checks.vector("w", w, parameterDimension());
        double s = 0;
        for (int i = 0; i < data.size(); i++) {
            s += loss.value(w, data, i);
        }
        return s / data.size();
    }

    /** ∇F̂(w) into out (non-private). Modified: out. */
    public void fullGradient(DMatrixRMaj w, DMatrixRMaj out) {
        Checks.vector("w", w, parameterDimension());
        Checks.vector("out", out, parameterDimension());
        Vectors.zero(out);
        int n = data.size();
        if (loss instanceof GeneralizedLinearLoss gll) {
            GllKernels.addGradient(data, gll, w, n, out, GllKernels.passThreads());
            return;
        }
        DMatrixRMaj g = new DMatrixRMaj(parameterDimension(), 1);
        for (int i = 0; i < n; i++) {
            loss.gradient(w, data, i, g);
            Vectors.axpy(1.0 / n, g, out);
        }
    }

    /**
     * The same loss, domain and intercept on another dataset of the original features (e.g. a test
     * split): with an intercept, its rows are augmented with the same constant.
     */
    public Problem withData(Dataset other) {
        Checks.notNull("other", other);
        if (!hasIntercept()) {
            return new Problem(other, loss, domain, 0, 0);
        }
        if (other.dimension() != featureDimension()) {
            throw Checks.fail("number of features", "the problem's " + featureDimension(), other.dimension());
        }
        return new Problem(other.withConstantColumn(interceptScale), loss, domain, 0, interceptScale);
    }

    /** The same data, domain, declared size and intercept with another loss (e.g. a smoothed surrogate). */
    public Problem withLoss(Loss other) {
        return new Problem(data, other, domain, declaredSize, interceptScale);
    }
}
