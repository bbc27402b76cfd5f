package org.dpopt.models;

import java.util.List;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Losses;

/**
 * Differentially private linear regression (least squares) in the scikit-learn idiom, with an
 * intercept by default:
 * <pre>{@code
 *   Model m = DpLinearRegression.builder().epsilon(1).delta(1e-5).labelBound(1).build().fit(train);
 *   m.predict(x); m.privacy();
 * }</pre>
 *
 * <p>The loss is ½(s − y)² on the declared range |s| ≤ B, |y| ≤ B for the label bound B (beyond it the
 * loss continues linearly, so its derivative stays within 2B — {@code Losses.squared(B, B)}); the fit
 * runs practical DP-SGD with its defaults, whose sensitivity is the clip norm, from public quantities
 * only. Labels are used as given (a label outside ±B only has its gradient clamped). Noise is secure
 * unless {@link EstimatorBuilder#seed} asks for research mode.
 */
public final class DpLinearRegression extends Estimator {
    private final double labelBound;

    private DpLinearRegression(Builder b) {
        super(b.settings());
        this.labelBound = b.labelBound;
    }

    /** A builder; {@code epsilon} and {@code delta} are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** Fits the squared loss on the declared label range. */
    @Override
    Model fitChecked(Dataset train) {
        return settings.fit(train, Losses.squared(labelBound, labelBound), new double[0], List.of());
    }

    /** Builder. */
    public static final class Builder extends EstimatorBuilder<Builder> {
        private double labelBound = 1.0;

        private Builder() {
        }

        /** The declared bound B on |y| and on the predictions' range of the squared loss (default 1). */
        public Builder labelBound(double b) {
            this.labelBound = Checks.positive("labelBound", b);
            return this;
        }

        /** The estimator. */
        public DpLinearRegression build() {
            return new DpLinearRegression(this);
        }
    }
}
