package org.dpopt.models;

import java.util.ArrayList;
import java.util.List;
import org.dpopt.data.Dataset;
import org.dpopt.data.Labels;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Losses;

/**
 * Differentially private logistic regression in the scikit-learn idiom: binary (labels {0, 1} or
 * {−1, +1}) or multinomial for k ≥ 3 classes (labels 0..k−1), with an intercept by default.
 * <pre>{@code
 *   Model m = DpLogisticRegression.builder().epsilon(1).delta(1e-5).build().fit(train);
 *   m.predict(x); m.predictProbability(x); m.privacy();
 * }</pre>
 *
 * <p>It runs practical DP-SGD (Abadi et al. 2016, arXiv:1607.00133) with its defaults — Poisson
 * batches of expected size min(256, n/10), 30 epochs, clip norm 1, learning rate 1, the noise
 * calibrated by the PLD accountant to (ε, δ) — all from public quantities (n, ε, δ, the declared row
 * bound R); noise is secure unless {@link EstimatorBuilder#seed} asks for research mode. For k classes
 * the per-example gradient (p − e_y) ⊗ (x, c) of the whole k×(d+1) model is clipped as one vector, so
 * the accounting is that of binary DP-SGD.
 *
 * <p>Classes: {@link Builder#classes(int)} declares k (2 for binary). Without it, labels all in {0, 1}
 * or all in {−1, +1} give a binary model, and otherwise k = 1 + the largest label, every label an
 * integer in 0..k−1; the class set is then derived from the training labels, which the model's
 * privacy notes say is treated as public. Training data with a single class is refused.
 *
 * <p>Comparable to diffprivlib's {@code LogisticRegression} (which splits ε over k one-vs-rest fits)
 * and Opacus' {@code make_private} on a linear layer.
 */
public final class DpLogisticRegression extends Estimator {
    private final int classes;

    private DpLogisticRegression(Builder b) {
        super(b.settings());
        this.classes = b.classes;
    }

    /** A builder; {@code epsilon} and {@code delta} are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** Fits k = 2 (logistic) or k &gt; 2 (multinomial) classes; refuses labels outside the class set. */
    @Override
    Model fitChecked(Dataset train) {
        Labels.requireTwoClasses(train, "the training data");
        List<String> notes = new ArrayList<>();
        int k = classes;
        if (k == 0) {
            boolean binary = Labels.isBinaryEncoded(train);
            k = binary ? 2 : Labels.impliedClassCount(train, "the training data");
            if (!binary) {
                notes.add("class set 0.." + (k - 1) + " derived from the training labels and treated as public "
                        + "(declare it with classes(k) to keep it a public choice)");
            }
        }
        if (k == 2) {
            Labels.BinaryEncoding e = Labels.binaryEncoding(train, "the training data");
            Loss loss = Losses.logistic();
            return settings.fit(train, loss, new double[] {e.negative(), e.positive()}, notes);
        }
        Labels.requireClasses(train, k, "the training data");
        double[] labels = new double[k];
        for (int c = 0; c < k; c++) {
            labels[c] = c;
        }
        return settings.fit(train, Losses.multinomial(k), labels, notes);
    }

    /** Builder. */
    public static final class Builder extends EstimatorBuilder<Builder> {
        private int classes;

        private Builder() {
        }

        /**
         * Declares the class set: 2 for a binary model (labels {0, 1} or {−1, +1}), k ≥ 3 for a
         * multinomial model (labels 0..k−1). Default: from the labels (see the class comment).
         */
        public Builder classes(int k) {
            this.classes = Checks.atLeast("classes", k, 2);
            return this;
        }

        /** The estimator. */
        public DpLogisticRegression build() {
            return new DpLogisticRegression(this);
        }
    }
}
