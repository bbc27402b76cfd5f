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

/** An estimator's validated settings and the fit they share: problem → optimizer → model. */
final class FitSettings {
    private final double epsilon;
    private final double delta;
    private final boolean fitIntercept;
    private final double interceptScale;
    private final double rowNormBound;
    private final int datasetSize;
    private final Long seed;
    private final PrivateOptimizer optimizer;

    FitSettings(EstimatorBuilder<?> b) {
        this.epsilon = b.epsilon;
        this.delta = b.delta;
        this.fitIntercept = b.fitIntercept;
        this.interceptScale = b.interceptScale;
        this.rowNormBound = b.rowNormBound;
        this.datasetSize = b.datasetSize;
        this.seed = b.seed;
        this.optimizer = b.optimizer != null ? b.optimizer : b.dpSgd.build();
    }

    /** The optimizer fits run with. */
    PrivateOptimizer optimizer() {
        return optimizer;
    }

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
