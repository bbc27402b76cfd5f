package org.dpopt.optim.objpert;

import java.util.Arrays;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.ejml.data.DMatrixRMaj;

/**
 * {@link GlmPasses} over a {@link Dataset} in memory: one sequential pass per call, rows in order, each
 * row's scalar divided by n before it is accumulated (so results do not depend on the thread count).
 */
final class InMemoryPasses implements GlmPasses {
    private final Dataset data;

    InMemoryPasses(Dataset data) {
        this.data = Checks.notNull("data", data);
    }

    /** The rows (for the stochastic inner steps of SVRG, which need single rows). */
    Dataset data() {
        return data;
    }

    @Override
    public int size() {
        return data.size();
    }

    @Override
    public int dimension() {
        return data.dimension();
    }

    @Override
    public double meanLoss(GeneralizedLinearLoss loss, DMatrixRMaj w) {
        int n = data.size();
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += loss.phi(data.dot(i, w), data.label(i));
        }
        return s / n;
    }

    @Override
    public void meanGradient(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj out, double[] perRow) {
        int n = data.size();
        Vectors.zero(out);
        for (int i = 0; i < n; i++) {
            double g = loss.derivative(data.dot(i, w), data.label(i));
            if (perRow != null) {
                perRow[i] = g;
            }
            data.addScaledRow(i, g / n, out);
        }
    }

    @Override
    public void meanCurvature(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj h) {
        int n = data.size();
        int d = data.dimension();
        double[] hs = h.data;
        Arrays.fill(hs, 0, d * d, 0.0);
        DMatrixRMaj row = new DMatrixRMaj(d, 1);
        double[] x = row.data;
        for (int i = 0; i < n; i++) {
            double c = loss.secondDerivative(data.dot(i, w), data.label(i)) / n;
            if (c == 0) {
                continue;
            }
            data.row(i, row);
            for (int a = 0; a < d; a++) {
                double ca = c * x[a];
                if (ca == 0) {
                    continue;
                }
                int base = a * d;
                for (int b = a; b < d; b++) {
                    hs[base + b] += ca * x[b];
                }
            }
        }
        for (int a = 0; a < d; a++) {
            for (int b = 0; b < a; b++) {
                hs[a * d + b] = hs[b * d + a];
            }
        }
    }
}
