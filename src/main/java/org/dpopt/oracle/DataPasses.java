package org.dpopt.oracle;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.ejml.data.DMatrixRMaj;

/**
 * The data access of full-gradient algorithms over a generalized linear loss φ, wherever the n rows
 * (xᵢ, yᵢ) live (this JVM, {@link DatasetPasses}; a cluster, {@code SparkPasses}). With uᵢ = ⟨w, xᵢ⟩:
 * <pre>
 *   meanLoss:      F̂(w)   = (1/n) Σᵢ φ(uᵢ, yᵢ)
 *   meanGradient:  ∇F̂(w)  = Σᵢ (φ′(uᵢ, yᵢ)/n) · xᵢ
 *   meanHessian:   ∇²F̂(w) = Σᵢ (φ″(uᵢ, yᵢ)/n) · xᵢxᵢᵀ     (d×d; rank one per row; φ″ one-sided at kinks)
 *   rows:          the rows with given ids, for the single-row steps of stochastic solvers (SVRG);
 *                  also from the pass of a gradient (meanGradientAndRows)
 * </pre>
 * Every pass is a <em>mean</em> over all n rows, each row's scalar divided by n before it is added (so
 * the terms are bounded by L₀R/n whatever n is), and n is {@link #size()}, the rows actually held. An
 * implementation may group the per-row terms in any way (a distributed one adds partition sums in a
 * tree); results then agree with the in-memory ones to rounding, not bit for bit, while
 * {@link #rows} returns the rows themselves, bit for bit.
 *
 * <p>Privacy: everything computed here is a data-dependent, <em>non-private</em> value. Callers
 * release only noisy functions of it, through the run core; {@link #size()} is used to check the
 * declared n and is never published.
 */
public interface DataPasses {

    /** n, the number of rows held (checked against the declared n; never released). */
    long size();

    /** d. */
    int dimension();

    /** (1/n) Σ φ(⟨w, xᵢ⟩, yᵢ): the sum of the φ, divided once by n. Not modified: w. */
    double meanLoss(GeneralizedLinearLoss loss, DMatrixRMaj w);

    /** out = Σ (φ′(⟨w, xᵢ⟩, yᵢ)/n)·xᵢ. Modified: out (d×1). Not modified: w. */
    void meanGradient(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj out);

    /**
     * h = Σ (φ″(⟨w, xᵢ⟩, yᵢ)/n)·xᵢxᵢᵀ, the upper triangle accumulated and then mirrored (symmetric to the
     * bit). Modified: h (d×d). Not modified: w.
     */
    void meanHessian(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj h);

    /**
     * The rows with ids {@code ids[0..count)} (ids in [0, n), repeats allowed, any order): a dataset
     * {@code data} and, for every t &lt; count, the position {@code position[t]} of row ids[t] in it, so
     * that {@code data.dot(position[t], w)} is ⟨w, x_{ids[t]}⟩ bit for bit. In memory the dataset itself
     * (nothing copied); a distributed implementation fetches the distinct rows (at most count) in one
     * job. Not modified: ids.
     *
     * @throws IllegalArgumentException if an id is outside [0, n)
     */
    Rows rows(long[] ids, int count);

    /**
     * {@link #meanGradient} at w and {@link #rows}(ids, count) from one pass over the data: the same
     * values as the two calls (a distributed implementation returns the rows from the job that computes
     * the gradient, saving one job). Modified: out. Not modified: w, ids.
     */
    default Rows meanGradientAndRows(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj out, long[] ids,
            int count) {
        meanGradient(loss, w, out);
        return rows(ids, count);
    }

    /**
     * Refuses the data if some |x_ij| exceeds a declared ℓ∞ bound (a public promise about the data that a
     * sensitivity uses), with the message of the in-memory check.
     */
    void requireSupNorm(double bound);

    /**
     * Rows by id (see {@link DataPasses#rows}).
     *
     * @param data the rows (in memory: all of them)
     * @param position position[t] is the row of the t-th requested id in data
     */
    record Rows(Dataset data, int[] position) {
        /** Validates. */
        public Rows {
            Checks.notNull("data", data);
            Checks.notNull("position", position);
        }
    }

    /** Refuses an id outside [0, n), naming it. */
    static void checkId(long id, long n) {
        if (id < 0 || id >= n) {
            throw Checks.fail("row id", "in [0, " + n + ")", id);
        }
    }
}
