package org.dpopt.oracle;

import java.util.Arrays;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.GllKernels;
import org.ejml.data.DMatrixRMaj;

/**
 * {@link DataPasses} over an in-memory {@link Dataset}: one pass per call, rows in order (so results do
 * not depend on a thread count); the mean gradient runs on {@link GllKernels#passThreads()} threads with
 * the bits of the sequential pass. The static kernels are the partial sums every engine
 * uses on a block of rows of a larger dataset of n rows: a distributed engine runs them on its blocks
 * and adds the partial results, so a term is computed the same way on every engine.
 *
 * @param data the rows
 */
public record DatasetPasses(Dataset data) implements DataPasses {

    /** Validates. */
    public DatasetPasses {
        Checks.notNull("data", data);
    }

    @Override
    public long size() {
        return data.size();
    }

    @Override
    public int dimension() {
        return data.dimension();
    }

    @Override
    public double meanLoss(GeneralizedLinearLoss loss, DMatrixRMaj w) {
        return lossSum(data, loss, w) / data.size();
    }

    @Override
    public void meanGradient(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj out) {
        Arrays.fill(out.data, 0, data.dimension(), 0.0);
        GllKernels.addGradient(data, loss, w, data.size(), out, GllKernels.passThreads());
    }

    @Override
    public void meanHessian(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj h) {
        int d = data.dimension();
        requireSquare(h, d);
        Arrays.fill(h.data, 0, d * d, 0.0);
        GllKernels.addHessianUpper(data, loss, w, data.size(), h.data, GllKernels.passThreads());
        mirrorUpper(h.data, d);
    }

    /** The dataset itself; position[t] = ids[t]. */
    @Override
    public Rows rows(long[] ids, int count) {
        int[] at = new int[count];
        for (int t = 0; t < count; t++) {
            DataPasses.checkId(ids[t], data.size());
            at[t] = (int) ids[t];
        }
        return new Rows(data, at);
    }

    @Override
    public void requireSupNorm(double bound) {
        requireSupNorm(data, bound, 0);
    }

    /** Σ φ(⟨w, xᵢ⟩, yᵢ) over the rows, in order. */
    public static double lossSum(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w) {
        return GllKernels.lossSum(rows, loss, w);
    }

    /** out ← out + Σ (φ′(⟨w, xᵢ⟩, yᵢ)/n)·xᵢ over the rows, in order. Modified: out. */
    public static void addGradient(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n,
            DMatrixRMaj out) {
        GllKernels.addGradient(rows, loss, w, n, out);
    }

    /**
     * upper ← upper + Σ (φ″(⟨w, xᵢ⟩, yᵢ)/n)·xᵢxᵢᵀ over the rows, in order, on the upper triangle
     * (entries a ≤ b of the row-major d×d array) only. Modified: upper.
     */
    public static void addHessianUpper(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n,
            double[] upper) {
        GllKernels.addHessianUpper(rows, loss, w, n, upper, 0, rows.dimension());
    }

    /** Copies the upper triangle of a row-major d×d array onto its lower triangle. Modified: h. */
    public static void mirrorUpper(double[] h, int d) {
        for (int a = 0; a < d; a++) {
            for (int b = 0; b < a; b++) {
                h[a * d + b] = h[b * d + a];
            }
        }
    }

    /** Refuses h unless it is d×d. */
    public static void requireSquare(DMatrixRMaj h, int d) {
        if (h.numRows != d || h.numCols != d) {
            throw Checks.fail("h", "a " + d + "x" + d + " matrix", h.numRows + "x" + h.numCols);
        }
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
