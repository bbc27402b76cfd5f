package org.dpopt.oracle;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.ejml.data.DMatrixRMaj;

/**
 * {@link DataPasses} over the rows of an in-memory {@link Dataset} (or a block of rows on an executor),
 * in row order. The kernels every engine uses for its partial sums.
 *
 * @param data the rows
 */
public record DatasetPasses(Dataset data) implements DataPasses {

    /** Validates. */
    public DatasetPasses {
        Checks.notNull("data", data);
    }

    @Override
    public int dimension() {
        return data.dimension();
    }

    @Override
    public void addGradient(GeneralizedLinearLoss loss, DMatrixRMaj w, double scale, DMatrixRMaj out) {
        for (int i = 0; i < data.size(); i++) {
            data.addScaledRow(i, loss.derivative(data.dot(i, w), data.label(i)) * scale, out);
        }
    }

    @Override
    public double addValueAndGradient(GeneralizedLinearLoss loss, DMatrixRMaj w, double scale, DMatrixRMaj out) {
        double v = 0;
        for (int i = 0; i < data.size(); i++) {
            double u = data.dot(i, w);
            double y = data.label(i);
            v += loss.phi(u, y);
            data.addScaledRow(i, loss.derivative(u, y) * scale, out);
        }
        return v * scale;
    }

    @Override
    public void addHessianVector(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj v, double scale,
            DMatrixRMaj out) {
        for (int i = 0; i < data.size(); i++) {
            double c = loss.secondDerivative(data.dot(i, w), data.label(i));
            if (c != 0) {
                data.addScaledRow(i, c * data.dot(i, v) * scale, out);
            }
        }
    }

    @Override
    public void addHessian(GeneralizedLinearLoss loss, DMatrixRMaj w, double scale, DMatrixRMaj out) {
        int d = data.dimension();
        if (out.numRows != d || out.numCols != d) {
            throw Checks.fail("out", "a " + d + "x" + d + " matrix", out.numRows + "x" + out.numCols);
        }
        double[] h = out.data;
        double[] upper = new double[d * d];
        for (int i = 0; i < data.size(); i++) {
            double c = loss.secondDerivative(data.dot(i, w), data.label(i)) * scale;
            if (c == 0) {
                continue;
            }
            for (int a = 0; a < d; a++) {
                double ca = c * data.feature(i, a);
                if (ca == 0) {
                    continue;
                }
                for (int b = a; b < d; b++) {
                    upper[a * d + b] += ca * data.feature(i, b);
                }
            }
        }
        for (int a = 0; a < d; a++) {
            for (int b = a; b < d; b++) {
                h[a * d + b] += upper[a * d + b];
                if (b != a) {
                    h[b * d + a] += upper[a * d + b];
                }
            }
        }
    }

    @Override
    public void requireSupNorm(double bound) {
        requireSupNorm(data, bound, 0);
    }

    /**
     * The ℓ∞ check on rows whose first id is {@code firstId} (naming the offending entry by its record id).
     */
    public static void requireSupNorm(Dataset data, double bound, long firstId) {
        for (int i = 0; i < data.size(); i++) {
            for (int j = 0; j < data.dimension(); j++) {
                double v = Math.abs(data.feature(i, j));
                if (!(v <= bound)) {
                    throw Checks.fail("|feature[" + (firstId + i) + "][" + j + "]|",
                            "at most the declared sup-norm bound " + bound, v);
                }
            }
        }
    }
}
