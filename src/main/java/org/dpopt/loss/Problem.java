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
 * @param data the dataset
 * @param loss the per-example loss
 * @param domain the constraint set W
 * @param declaredSize the public dataset size declared in advance, or 0 if none was declared
 */
public record Problem(Dataset data, Loss loss, ConvexSet domain, int declaredSize) {

    /** Validates non-null components and a non-negative declared size. */
    public Problem {
        Checks.notNull("data", data);
        Checks.notNull("loss", loss);
        Checks.notNull("domain", domain);
        if (declaredSize < 0) {
            throw Checks.fail("declaredSize", "positive (or 0 for none)", declaredSize);
        }
    }

    /** A problem with the given data, loss and domain; the actual size is treated as public. */
    public static Problem of(Dataset data, Loss loss, ConvexSet domain) {
        return new Problem(data, loss, domain, 0);
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
        return new Problem(data, loss, domain, Checks.atLeastOne("declared dataset size", n));
    }

    /** The public shape a plan is made from (no data access). */
    public ProblemShape shape() {
        boolean declared = declaredSize > 0;
        return new ProblemShape(declared ? declaredSize : data.size(), data.dimension(), data.rowNormBound(),
                loss, domain, declared);
    }

    /** The actual number of rows (not public unless no size was declared). */
    public int size() {
        return data.size();
    }

    /** d. */
    public int dimension() {
        return data.dimension();
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
        Checks.vector("w", w, dimension());
        double s = 0;
        for (int i = 0; i < data.size(); i++) {
            s += loss.value(w, data, i);
        }
        return s / data.size();
    }

    /** ∇F̂(w) into out (non-private). Modified: out. */
    public void fullGradient(DMatrixRMaj w, DMatrixRMaj out) {
        Checks.vector("w", w, dimension());
        Checks.vector("out", out, dimension());
        Vectors.zero(out);
        int n = data.size();
        if (loss instanceof GeneralizedLinearLoss gll) {
            for (int i = 0; i < n; i++) {
                data.addScaledRow(i, gll.derivative(data.dot(i, w), data.label(i)) / n, out);
            }
            return;
        }
        DMatrixRMaj g = new DMatrixRMaj(dimension(), 1);
        for (int i = 0; i < n; i++) {
            loss.gradient(w, data, i, g);
            Vectors.axpy(1.0 / n, g, out);
        }
    }

    /** The same loss and domain on another dataset (e.g. a test split). */
    public Problem withData(Dataset other) {
        return new Problem(other, loss, domain, 0);
    }
}
