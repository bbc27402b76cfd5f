package org.dpopt.loss;

/**
 * The sigmoid (smoothed 0-1) classification loss φ(u, y) = 1/(1 + e^{s·u}) with s = sign(y): a
 * smooth, bounded, non-convex loss.
 *
 * <pre>
 *   with m = s·u and σ(m) = 1/(1 + e^{−m}):   φ = σ(−m),
 *   φ′(u) = −s·σ(m)(1 − σ(m)),   |φ′| ≤ L₀ = 1/4,
 *   φ″(u) = −σ(m)(1 − σ(m))(1 − 2σ(m)),   |φ″| ≤ β₀ = 1/(6√3)
 * </pre>
 *
 * <p>(The maximum of |σ(1−σ)(1−2σ)| is at σ = ½ ± 1/(2√3).) A β₀R²-smooth loss is ρ = β₀R²-weakly
 * convex (w.r.t. ‖·‖_p for 1 ≤ p ≤ 2, since ⟨x, v⟩² ≤ R²‖v‖²_p), which is what
 * {@link #weakConvexity(double)} declares. Used as the smooth non-convex example of the weakly convex
 * optimizers.
 */
public final class SigmoidLoss extends ScalarLoss {
    /** β₀ = 1/(6√3). */
    public static final double SCALAR_SMOOTHNESS = 1 / (6 * Math.sqrt(3));

    /** The shared instance (after the constant it is built from). */
    public static final SigmoidLoss INSTANCE = new SigmoidLoss();

    private SigmoidLoss() {
        super("sigmoid", 0.25, SCALAR_SMOOTHNESS, true, SCALAR_SMOOTHNESS);
    }

    private static double sigmoid(double m) {
        return m >= 0 ? 1 / (1 + Math.exp(-m)) : Math.exp(m) / (1 + Math.exp(m));
    }

    @Override
    public double phi(double u, double y) {
        return sigmoid(-GeneralizedLinearLoss.sign(y) * u);
    }

    @Override
    public double derivative(double u, double y) {
        double s = GeneralizedLinearLoss.sign(y);
        double sg = sigmoid(s * u);
        return -s * sg * (1 - sg);
    }

    @Override
    public double secondDerivative(double u, double y) {
        double sg = sigmoid(GeneralizedLinearLoss.sign(y) * u);
        return -sg * (1 - sg) * (1 - 2 * sg);
    }
}
