package org.dpopt.optim.objpert;

import org.dpopt.data.Dataset;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.ejml.data.DMatrixRMaj;

/**
 * The full passes over the data that objective perturbation's solvers make, for a generalized linear
 * loss φ: each is a mean over the n rows (xᵢ, yᵢ) of a per-row term, so an implementation may compute
 * it as a sum of per-row contributions in any grouping (a distributed implementation as a tree
 * aggregate of partition sums). With uᵢ = ⟨w, xᵢ⟩:
 *
 * <ul>
 * <li>{@link #meanLoss}: (1/n) Σ φ(uᵢ, yᵢ);</li>
 * <li>{@link #meanGradient}: (1/n) Σ φ′(uᵢ, yᵢ) xᵢ;</li>
 * <li>{@link #meanCurvature}: (1/n) Σ φ″(uᵢ, yᵢ) xᵢxᵢᵀ (the Hessian of the mean loss; rank one per row).</li>
 * </ul>
 *
 * <p>The passes read the private data; what is computed from them is released only through the
 * mechanism that uses them. {@link #inMemory} is the in-process implementation.
 */
public interface GlmPasses {

    /** n, the number of rows. */
    int size();

    /** d. */
    int dimension();

    /** (1/n) Σ φ(⟨w, xᵢ⟩, yᵢ). Not modified: w. */
    double meanLoss(GeneralizedLinearLoss loss, DMatrixRMaj w);

    /**
     * out = (1/n) Σ φ′(⟨w, xᵢ⟩, yᵢ) xᵢ; if {@code perRow} is non-null, φ′(⟨w, xᵢ⟩, yᵢ) is also stored in
     * perRow[i] (an implementation without row-indexed storage may refuse a non-null array with
     * {@link UnsupportedOperationException}). Modified: out, perRow. Not modified: w.
     */
    void meanGradient(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj out, double[] perRow);

    /**
     * h = (1/n) Σ φ″(⟨w, xᵢ⟩, yᵢ) xᵢxᵢᵀ (d×d, symmetric; φ″ taken one-sided at kinks).
     * Modified: h. Not modified: w.
     */
    void meanCurvature(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj h);

    /** The passes over an in-memory dataset (sequential, deterministic order). */
    static GlmPasses inMemory(Dataset data) {
        return new InMemoryPasses(data);
    }
}
