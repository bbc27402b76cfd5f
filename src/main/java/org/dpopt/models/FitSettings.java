package org.dpopt.models;

import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.DatasetIO;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;

/**
 * An estimator's validated settings and the fit they share: problem → optimizer → model.
 *
 * @param epsilon the target ε
 * @param delta the target δ
 * @param fitIntercept whether to fit an intercept
 * @param interceptScale the intercept column's constant c (NaN: the default for R)
 * @param rowNormBound the declared bound R (NaN: the dataset's, or 1 for in-memory rows)
 * @param datasetSize the declared n (0: the number of rows)
 * @param seed the research-mode seed (null: secure noise)
 * @param optimizer the optimizer fits run with
 */
record FitSettings(double epsilon, double delta, boolean fitIntercept, double interceptScale, double rowNormBound,
        int datasetSize, Long seed, PrivateOptimizer optimizer) {

    /** The declared bound for in-memory rows (default 1). */
    double arrayRowNormBound() {
        return Double.isNaN(rowNormBound) ? 1.0 : rowNormBound;
    }

    /** In-memory rows as a dataset with the declared bound; longer rows are projected onto the R-ball. */
    Dataset dataset(double[][] x, double[] y) {
        return DatasetIO.fromRows(x, y, arrayRowNormBound(), DatasetIO.RowNormPolicy.PROJECT).dataset();
    }

    /**
     * Fits: the problem (with the intercept and declared size), the optimizer at the budget with secure
     * noise (seeded in research mode), and the model with its privacy statement.
     *
     * @param notes extra notes for the model's privacy statement (e.g. a class set treated as public)
     */
    Model fit(Dataset data, Loss loss, double[] classes, List<String> notes) {
        Checks.notNull("data", data);
        if (!Double.isNaN(rowNormBound) && rowNormBound != data.rowNormBound()) {
            throw Checks.fail("rowNormBound", "equal to the dataset's declared bound " + data.rowNormBound()
                    + " (or unset)", rowNormBound);
        }
        Problem p = Problem.of(data, loss);
        if (fitIntercept) {
            p = p.withIntercept(Double.isNaN(interceptScale) ? Problem.defaultInterceptScale(data.rowNormBound())
                    : interceptScale);
        }
        if (datasetSize > 0) {
            p = p.withDeclaredSize(datasetSize);
        }
        UniformRandomProvider rng = seed != null ? Rngs.seeded(seed) : Rngs.secure();
        OptimizationResult r = optimizer.optimize(p, PrivacyBudget.of(epsilon, delta), rng);
        return Model.fromRun(r, p, data.rowNormBound(), classes, notes);
    }
}
