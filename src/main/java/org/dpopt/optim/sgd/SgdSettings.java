package org.dpopt.optim.sgd;

import org.dpopt.linalg.Checks;

/**
 * The schedule settings an {@link SgdBuilder} hands to its optimizer: b, E and η as set (each builder
 * states its defaults; for {@link Bftt19Sgd} 0 and NaN mean "the preset's").
 *
 * @param batchSize the (expected) batch size b, or 0 for min(256, n/10)
 * @param epochs the number of epochs E
 * @param learningRate the step size η
 */
record SgdSettings(int batchSize, double epochs, double learningRate) {

    /**
     * b for n rows: as set, or the default min(256, n/10).
     *
     * @throws IllegalArgumentException if a set b exceeds n
     */
    int batchSizeFor(int n) {
        int b = batchSize > 0 ? batchSize : NoisySgd.defaultBatchSize(n);
        if (b > n) {
            throw Checks.fail("batchSize", "at most the dataset size " + n, b);
        }
        return b;
    }
}
