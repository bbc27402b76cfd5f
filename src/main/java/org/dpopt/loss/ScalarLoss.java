package org.dpopt.loss;

/**
 * A generalized linear loss with its name, its constants L₀ and β₀, its kind and its convexity fixed at
 * construction: convex, or ρ-weakly convex with ρ = c·R² for rows of norm at most R (since
 * ⟨x, v⟩² ≤ R²‖v‖²_p for 1 ≤ p ≤ 2, a φ with φ″ ≥ −c gives that ρ). φ″ is 0 unless a subclass says
 * otherwise.
 */
abstract class ScalarLoss implements GeneralizedLinearLoss {
    private final String name;
    private final double lipschitz;
    private final double smoothness;
    private final boolean classification;
    private final double weakConvexityPerR2;

    /** A convex loss. */
    ScalarLoss(String name, double lipschitz, double smoothness, boolean classification) {
        this(name, lipschitz, smoothness, classification, 0);
    }

    /**
     * A loss that is convex for weakConvexityPerR2 = 0, else weakly convex with ρ = weakConvexityPerR2·R².
     */
    ScalarLoss(String name, double lipschitz, double smoothness, boolean classification, double weakConvexityPerR2) {
        this.name = name;
        this.lipschitz = lipschitz;
        this.smoothness = smoothness;
        this.classification = classification;
        this.weakConvexityPerR2 = weakConvexityPerR2;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public double secondDerivative(double u, double y) {
        return 0;
    }

    @Override
    public final double scalarLipschitz() {
        return lipschitz;
    }

    @Override
    public final double scalarSmoothness() {
        return smoothness;
    }

    @Override
    public final boolean isClassification() {
        return classification;
    }

    @Override
    public final Convexity convexity() {
        return weakConvexityPerR2 == 0 ? Convexity.CONVEX : Convexity.WEAKLY_CONVEX;
    }

    @Override
    public final double weakConvexity(double rowNormBound) {
        return weakConvexityPerR2 == 0 ? 0.0 : weakConvexityPerR2 * rowNormBound * rowNormBound;
    }

    /**
     * The one number that, with the class, fixes the function (a threshold, a range); 0 for a loss without
     * one. Two losses are equal when they are of the same class with the same parameter.
     */
    double parameter() {
        return 0;
    }

    /** Equal: the same class with the same {@link #parameter()} (the function is then the same). */
    @Override
    public final boolean equals(Object o) {
        return o != null && o.getClass() == getClass()
                && Double.compare(((ScalarLoss) o).parameter(), parameter()) == 0;
    }

    @Override
    public final int hashCode() {
        return 31 * getClass().hashCode() + Double.hashCode(parameter());
    }

    @Override
    public String toString() {
        return name();
    }
}
