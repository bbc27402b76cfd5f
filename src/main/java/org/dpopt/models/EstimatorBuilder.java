package org.dpopt.models;

import org.dpopt.linalg.Checks;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.sgd.NoisySgd;

/**
 * The settings every estimator shares: the budget (ε, δ), the intercept, the declared public
 * constants (row-norm bound R, dataset size n), the noise mode, and the DP-SGD knobs — or a whole
 * optimizer for research use. Defaults come from public quantities only.
 *
 * @param <B> the concrete builder type
 */
public abstract class EstimatorBuilder<B extends EstimatorBuilder<B>> {
    double epsilon = Double.NaN;
    double delta = Double.NaN;
    boolean fitIntercept = true;
    double interceptScale = Double.NaN;
    double rowNormBound = Double.NaN;
    int datasetSize;
    Long seed;
    PrivateOptimizer optimizer;
    /** The DP-SGD the knobs configure (its own setters validate them, its defaults are the estimator's). */
    final NoisySgd.Builder dpSgd = NoisySgd.builder();
    /** Whether any DP-SGD knob was set. */
    boolean dpSgdSet;

    /** For subclasses in this package. */
    EstimatorBuilder() {
    }

    /** This builder, typed: each concrete {@code Foo.Builder} extends {@code EstimatorBuilder<Foo.Builder>}. */
    @SuppressWarnings("unchecked")
    B self() {
        return (B) this;
    }

    /** The target ε &gt; 0 (required). */
    public B epsilon(double eps) {
        this.epsilon = Checks.epsilon("epsilon", eps);
        return self();
    }

    /** The target δ ∈ (0, 1) (required). */
    public B delta(double d) {
        this.delta = Checks.delta("delta", d);
        return self();
    }

    /**
     * Whether to fit an intercept (default true, as scikit-learn's {@code fit_intercept}): each row x
     * becomes (x, c) and the declared bound √(R² + c²).
     */
    public B fitIntercept(boolean on) {
        this.fitIntercept = on;
        return self();
    }

    /** The constant c &gt; 0 of the intercept's column (default {@code Problem.defaultInterceptScale(R)}). */
    public B interceptScale(double c) {
        this.interceptScale = Checks.positive("interceptScale", c);
        return self();
    }

    /**
     * The declared public bound R on ‖x‖₂ (default: the dataset's declared bound for {@code fit(Dataset)},
     * 1 for {@code fit(x, y)}, where longer rows are projected onto the R-ball).
     */
    public B rowNormBound(double r) {
        this.rowNormBound = Checks.positive("rowNormBound", r);
        return self();
    }

    /** Declares the public dataset size n in advance (default: the number of rows, treated as public). */
    public B datasetSize(int n) {
        this.datasetSize = Checks.atLeastOne("datasetSize", n);
        return self();
    }

    /**
     * Research mode: draw all noise and sampling from a generator seeded with s. The fit is reproducible
     * and its model says it is NOT private unless the seed is secret and random. Default: secure noise.
     */
    public B seed(long s) {
        this.seed = s;
        return self();
    }

    /** DP-SGD's expected batch size (default min(256, n/10)). */
    public B batchSize(int b) {
        dpSgd.batchSize(b);
        return dpSgdKnob();
    }

    /** DP-SGD's number of epochs (default 30). */
    public B epochs(double e) {
        dpSgd.epochs(e);
        return dpSgdKnob();
    }

    /** DP-SGD's per-example clip norm C (default 1). */
    public B clipNorm(double c) {
        dpSgd.clipNorm(c);
        return dpSgdKnob();
    }

    /** DP-SGD's learning rate (default 1). */
    public B learningRate(double eta) {
        dpSgd.learningRate(eta);
        return dpSgdKnob();
    }

    /** DP-SGD's ℓ2 regularization λ (default 0). */
    public B l2(double lambda) {
        dpSgd.l2(lambda);
        return dpSgdKnob();
    }

    /** Notes that a DP-SGD knob was set. */
    private B dpSgdKnob() {
        dpSgdSet = true;
        return self();
    }

    /**
     * Research use: fit with this optimizer instead of DP-SGD (then the DP-SGD knobs must not be set).
     * It must support the loss (the k-class loss runs with dp-sgd, nsgd and non-private).
     */
    public B optimizer(PrivateOptimizer opt) {
        this.optimizer = Checks.notNull("optimizer", opt);
        return self();
    }

    /** The settings, validated. */
    FitSettings settings() {
        if (Double.isNaN(epsilon)) {
            throw Checks.fail("epsilon", "set (the privacy budget is required)", "unset");
        }
        if (Double.isNaN(delta)) {
            throw Checks.fail("delta", "set (the privacy budget is required)", "unset");
        }
        if (optimizer != null && dpSgdSet) {
            throw Checks.fail("DP-SGD settings", "unset when an optimizer is given", optimizer.name());
        }
        if (!fitIntercept && !Double.isNaN(interceptScale)) {
            throw Checks.fail("interceptScale", "unset when fitIntercept is false", interceptScale);
        }
        return new FitSettings(epsilon, delta, fitIntercept, interceptScale, rowNormBound, datasetSize, seed,
                optimizer != null ? optimizer : dpSgd.build());
    }
}
