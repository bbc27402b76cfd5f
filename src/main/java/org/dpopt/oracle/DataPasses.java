package org.dpopt.oracle;

import org.dpopt.loss.GeneralizedLinearLoss;
import org.ejml.data.DMatrixRMaj;

/**
 * Full passes over the rows of a generalized-linear problem, wherever the rows live (this JVM,
 * {@link DatasetPasses}, or a cluster): the sums that full-gradient algorithms (noisy Frank–Wolfe,
 * objective perturbation's solvers) need, each over all rows i of
 * <pre>
 *   value:           s · Σ_i φ(⟨w, x_i⟩, y_i)
 *   gradient:        s · Σ_i φ′(⟨w, x_i⟩, y_i) · x_i
 *   Hessian·vector:  s · Σ_i φ″(⟨w, x_i⟩, y_i) · ⟨x_i, v⟩ · x_i
 *   Hessian:         s · Σ_i φ″(⟨w, x_i⟩, y_i) · x_i x_iᵀ          (d×d; for Newton solvers at moderate d)
 * </pre>
 * with a caller's scale s (e.g. 1/n). Sums are data-dependent and <em>not</em> private: callers release
 * them only through the run core's noisy mechanisms. A distributed implementation may add partial
 * sums in another order than the in-memory one (results then agree to rounding, not bit for bit).
 */
public interface DataPasses {

    /** d. */
    int dimension();

    /** out ← out + s·Σ φ′(⟨w, x_i⟩, y_i)·x_i, each term scaled before it is added. Modified: out. */
    void addGradient(GeneralizedLinearLoss loss, DMatrixRMaj w, double scale, DMatrixRMaj out);

    /** s·Σ φ(⟨w, x_i⟩, y_i), and out ← out + s·Σ φ′·x_i in the same pass. Modified: out. */
    double addValueAndGradient(GeneralizedLinearLoss loss, DMatrixRMaj w, double scale, DMatrixRMaj out);

    /** out ← out + s·Σ φ″(⟨w, x_i⟩, y_i)·⟨x_i, v⟩·x_i. Modified: out. */
    void addHessianVector(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj v, double scale, DMatrixRMaj out);

    /**
     * out ← out + s·Σ φ″(⟨w, x_i⟩, y_i)·x_i x_iᵀ for a d×d out (the upper triangle accumulated, then
     * mirrored). Modified: out.
     */
    void addHessian(GeneralizedLinearLoss loss, DMatrixRMaj w, double scale, DMatrixRMaj out);

    /**
     * Refuses the data if some |x_ij| exceeds a declared ℓ∞ bound (a public promise about the data that a
     * sensitivity uses), with the message of the in-memory check.
     */
    void requireSupNorm(double bound);
}
