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
    /** b, E and η as set so far (a value: each setter replaces it). */
    SgdSettings sgd;

    SgdBuilder(int batchSize, double epochs, double learningRate) {
        this.sgd = new SgdSettings(batchSize, epochs, learningRate);
    }

    /** (Expected) batch size b ≥ 1 (default min(256, n/10)). */
    public B batchSize(int b) {
        this.sgd = new SgdSettings(Checks.atLeastOne("batchSize", b), sgd.epochs(), sgd.learningRate());
        return self();
    }

    /** Epochs E &gt; 0; T = ⌈E·n/b⌉. */
    public B epochs(double e) {
        this.sgd = new SgdSettings(sgd.batchSize(), Checks.positive("epochs", e), sgd.learningRate());
        return self();
    }

    /** Step size η &gt; 0, applied to the batch mean. */
    public B learningRate(double eta) {
        this.sgd = new SgdSettings(sgd.batchSize(), sgd.epochs(), Checks.positive("learningRate", eta));
        return self();
    }
}
