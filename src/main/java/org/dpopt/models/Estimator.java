package org.dpopt.models;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.PrivateOptimizer;

/**
 * What every estimator offers: {@link #fit(Dataset)} on a dataset whose declared row-norm bound is
 * public, {@link #fit(double[][], double[])} on in-memory rows, and the optimizer it fits with. Each fit
 * is one private release, accounted in the returned model's {@link Model#privacy()}.
 */
public abstract class Estimator {
    final FitSettings settings;

    Estimator(FitSettings settings) {
        this.settings = settings;
    }

    /** The optimizer fits run with (DP-SGD unless one was given). */
    public PrivateOptimizer optimizer() {
        return settings.optimizer();
    }

    /**
     * Fits on a dataset (its declared row-norm bound R is the public bound the sensitivity rests on).
     *
     * @throws IllegalArgumentException if train is null or its labels do not suit the estimator (for a
     *     classifier: labels outside the class set, or a single class)
     */
    public final Model fit(Dataset train) {
        return fitChecked(Checks.notNull("train", train));
    }

    /** Fits on a non-null dataset. */
    abstract Model fitChecked(Dataset train);

    /**
     * Fits on in-memory rows x (n×d) and labels or targets y, with the declared bound R
     * ({@code rowNormBound}, default 1): rows longer than R are projected onto the R-ball, a per-row map
     * that keeps the privacy argument (scaling features with data statistics would not). Not modified:
     * x, y.
     */
    public Model fit(double[][] x, double[] y) {
        return fit(settings.dataset(x, y));
    }
}
