package org.dpopt.eval;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/** Evaluation metrics for a linear model w on a dataset (computed on the data: not private). */
public final class Metrics {
    private Metrics() {
    }

    /** Fraction of rows with sign(⟨w, x⟩) equal to the label's class (y &gt; 0 ⇒ +1). */
    public static double accuracy(DMatrixRMaj w, Dataset data) {
        Checks.vector("w", w, data.dimension());
        int correct = 0;
        for (int i = 0; i < data.size(); i++) {
            boolean pred = data.dot(i, w) > 0;
            boolean truth = data.label(i) > 0;
            if (pred == truth) {
                correct++;
            }
        }
        return (double) correct / data.size();
    }
}
