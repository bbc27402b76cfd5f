package org.dpopt.loss;

/**
 * The Cauchy (Lorentzian) robust regression loss, a smooth non-convex example:
 *
 * <pre>
 *   r = u − y,   φ(u, y) = ln(1 + r²/2),   φ′ = r/(1 + r²/2),   φ″ = (1 − r²/2)/(1 + r²/2)²
 *   |φ′| ≤ L₀ = 1/√2 (at r² = 2),   φ″ ∈ [−1/8, 1] (minimum at r² = 6),
 * </pre>
 *
 * so f(w) = φ(⟨w, x⟩, y) is L₀R-Lipschitz, R²-smooth and ρ = R²/8-weakly convex (w.r.t. ‖·‖_p for
 * 1 ≤ p ≤ 2, since ⟨x, v⟩² ≤ R²‖v‖²_p). With symmetric noise independent of x, y = ⟨w*, x⟩ + noise
 * has ∇F(w*) = 0 (φ′ is odd), so the planted w* of {@code Synthetic.linearRegression} is a stationary
 * point of the population risk (the global minimizer when the noise is small, since φ is convex for
 * r² ≤ 2).
 */
public final class CauchyLoss extends ScalarLoss {
    /** The shared instance. */
    public static final CauchyLoss INSTANCE = new CauchyLoss();

    private CauchyLoss() {
        super("cauchy", 1 / Math.sqrt(2), 1, false, 1.0 / 8);
    }

    @Override
    public double phi(double u, double y) {
        double r = u - y;
        return Math.log1p(0.5 * r * r);
    }

    @Override
    public double derivative(double u, double y) {
        double r = u - y;
        return r / (1 + 0.5 * r * r);
    }

    @Override
    public double secondDerivative(double u, double y) {
        double s = 0.5 * (u - y) * (u - y);
        return (1 - s) / ((1 + s) * (1 + s));
    }
}
