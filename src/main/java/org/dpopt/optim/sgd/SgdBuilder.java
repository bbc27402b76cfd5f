package org.dpopt.optim.sgd;

import org.dpopt.linalg.Checks;
import org.dpopt.optim.core.OptimizerBuilder;

/**
 * The schedule settings the SGD builders share: the (expected) batch size b, the number of epochs E
 * (T = ⌈E·n/b⌉ steps) and the step size η. Each builder states its own defaults.
 *
 * @param <B> the concrete builder type
 */
public abstract class SgdBuilder<B extends SgdBuilder<B>> extends OptimizerBuilder<B> {
    int batchSize;
    double epochs;
    double learningRate;

    SgdBuilder(int batchSize, double epochs, double learningRate) {
        this.batchSize = batchSize;
        this.epochs = epochs;
        this.learningRate = learningRate;
    }

    /** (Expected) batch size b ≥ 1 (default min(256, n/10)). */
    public B batchSize(int b) {
        this.batchSize = Checks.atLeastOne("batchSize", b);
        return self();
    }

    /** Epochs E &gt; 0; T = ⌈E·n/b⌉. */
    public B epochs(double e) {
        this.epochs = Checks.positive("epochs", e);
        return self();
    }

    /** The schedule settings as set so far. */
    SgdSettings sgdSettings() {
        return new SgdSettings(batchSize, epochs, learningRate);
    }

    /** Step size η &gt; 0, applied to the batch mean. */
    public B learningRate(double eta) {
        this.learningRate = Checks.positive("learningRate", eta);
        return self();
    }
}
