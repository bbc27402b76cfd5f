package org.dpopt.loss;

import org.dpopt.data.Dataset;
import org.ejml.data.DMatrixRMaj;

/**
 * A generalized linear loss f(w; (x, y)) = φ(⟨w, x⟩, y) with a scalar φ.
 *
 * <p>Its gradient is φ′(⟨w,x⟩, y)·x, so per-example norms are |φ′|·‖x‖ (clipping costs one multiply
 * given precomputed row norms), and its Hessian is rank one — what objective perturbation needs.
 * If |φ′| ≤ L₀ and |φ″| ≤ β₀ then on rows with ‖x‖ ≤ R the loss is L₀R-Lipschitz and β₀R²-smooth.
 *
 * <p>Implementations must keep {@link #derivative} inside [−L₀, L₀] for <em>every</em> input (clamp if
 * necessary), because sensitivities are computed from L₀.
 */
public interface GeneralizedLinearLoss extends Loss {

    /** φ(u, y). */
    double phi(double u, double y);

    /** A (sub)derivative φ′(u, y) with respect to u, in [−L₀, L₀]. */
    double derivative(double u, double y);

    /** Second derivative φ″(u, y) where it exists (0 for piecewise-linear losses). */
    double secondDerivative(double u, double y);

    /** L₀ = sup |φ′|. */
    double scalarLipschitz();

    /** β₀ = sup |φ″| (+∞ if φ is not differentiable). */
    double scalarSmoothness();

    /** True if φ(·, y) is twice continuously differentiable (needed by objective perturbation). */
    default boolean isTwiceDifferentiable() {
        return Double.isFinite(scalarSmoothness());
    }

    @Override
    default double value(DMatrixRMaj w, Dataset data, int i) {
        return phi(data.dot(i, w), data.label(i));
    }

    @Override
    default void gradient(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj out) {
        double g = derivative(data.dot(i, w), data.label(i));
        java.util.Arrays.fill(out.data, 0, out.numRows, 0.0);
        data.addScaledRow(i, g, out);
    }

    @Override
    default double lipschitz(double rowNormBound) {
        return scalarLipschitz() * rowNormBound;
    }

    @Override
    default double smoothness(double rowNormBound) {
        return scalarSmoothness() * rowNormBound * rowNormBound;
    }

    /** Classification labels: y &gt; 0 is +1, otherwise −1. */
    static double sign(double y) {
        return y > 0 ? 1.0 : -1.0;
    }
}
