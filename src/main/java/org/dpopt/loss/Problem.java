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
 * @param data the dataset (its size n is treated as public)
 * @param loss the per-example loss
 * @param domain the constraint set W
 */
public record Problem(Dataset data, Loss loss, ConvexSet domain) {

    /** Validates non-null components. */
    public Problem {
        Checks.notNull("data", data);
        Checks.notNull("loss", loss);
        Checks.notNull("domain", domain);
    }

    /** A problem with the given data, loss and domain. */
    public static Problem of(Dataset data, Loss loss, ConvexSet domain) {
        return new Problem(data, loss, domain);
    }

    /** An unconstrained problem. */
    public static Problem of(Dataset data, Loss loss) {
        return new Problem(data, loss, ConvexSets.unconstrained());
    }

    /** n. */
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
        return new Problem(other, loss, domain);
    }
}
