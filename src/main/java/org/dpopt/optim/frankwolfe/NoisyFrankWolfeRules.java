package org.dpopt.optim.frankwolfe;

import org.dpopt.geometry.Polytope;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.PrivacyBudget;

/**
 * The public-constant formulas of {@link NoisyFrankWolfe} (derived in theory-notes/frank-wolfe.md §2)
 * for a shape (n, R, d), a polytope W and an optional declared ℓ∞ row bound B∞ (+∞ when not declared).
 * With Dv₂ = max‖v‖₂, Dv₁ = max‖v‖₁ and J vertices:
 * <ul>
 * <li>max|⟨v, x⟩| over vertices and admissible rows ≤ min(R·Dv₂, B∞·Dv₁);</li>
 * <li>the replace-one score sensitivity Δ = 2L₀·min(R·Dv₂, B∞·Dv₁)/n;</li>
 * <li>the curvature bound Γ = β₀·min(R·diam₂(W), B∞·2Dv₁)², and the step count balancing the
 * Frank–Wolfe term 2Γ/(T+2) against the selection error 2b·ln J:
 * T = (Γnε / (8√2·L₀·min(R·Dv₂, B∞·Dv₁)·√ln(1/δ)·ln(J+1)))^{2/3};</li>
 * <li>for a non-smooth GLL, the Moreau parameter β = (3L₀²/(2A))^{3/4} ∝ √(nε) that minimizes
 * A·β^{1/3} + L₀²/(2β) (the balanced value of the two terms above plus the smoothing bias).</li>
 * </ul>
 *
 * @param shape the public shape (n, R, d)
 * @param set W
 * @param supBound B∞, or +∞
 */
record NoisyFrankWolfeRules(ProblemShape shape, Polytope set, double supBound) {

    /** max_{v, x} |⟨v, x⟩| ≤ min(R·Dv₂, B∞·Dv₁). */
    double vertexRowBound() {
        int d = shape.dimension();
        return Math.min(shape.rowNormBound() * set.maxVertexNorm2(d), supBound * set.maxVertexNorm1(d));
    }

    /** Δ = 2L₀·max|⟨v, x⟩|/n. */
    double sensitivity(GeneralizedLinearLoss loss) {
        return 2 * loss.scalarLipschitz() * vertexRowBound() / shape.size();
    }

    /** min(R·diam₂(W), B∞·2Dv₁), the spread of the margins ⟨w − w′, x⟩ over W. */
    private double spread() {
        int d = shape.dimension();
        return Math.min(shape.rowNormBound() * set.diameter(d), supBound * 2 * set.maxVertexNorm1(d));
    }

    /** √ln(1/δ), a factor of the selection error. */
    private static double sqrtLog(PrivacyBudget budget) {
        return Math.sqrt(Math.log(1 / budget.delta()));
    }

    /** ln(J + 1), the other factor of the selection error. */
    private double logVertices() {
        return Math.log(set.vertexCount(shape.dimension()) + 1.0);
    }

    /** The theorem's step count before clamping. */
    double theoremSteps(GeneralizedLinearLoss loss, PrivacyBudget budget) {
        double spread = spread();
        double gamma = loss.scalarSmoothness() * spread * spread;
        double num = gamma * shape.size() * budget.epsilon();
        double den = 8 * Math.sqrt(2) * loss.scalarLipschitz() * vertexRowBound() * sqrtLog(budget) * logVertices();
        return Math.pow(num / den, 2.0 / 3.0);
    }

    /**
     * The Moreau parameter β for a non-smooth GLL: with c = 16√2·L₀·max|⟨v, x⟩|·√ln(1/δ)·ln(J+1)/(nε) and
     * A = 1.89·(2·spread²)^{1/3}·c^{2/3}, β = (3L₀²/(2A))^{3/4}.
     */
    double smoothing(GeneralizedLinearLoss loss, PrivacyBudget budget) {
        double l0 = loss.scalarLipschitz();
        double spread = spread();
        double c = 16 * Math.sqrt(2) * l0 * vertexRowBound() * sqrtLog(budget) * logVertices()
                / (shape.size() * budget.epsilon());
        double a = 1.89 * Math.cbrt(2 * spread * spread) * Math.pow(c, 2.0 / 3.0);
        return Math.pow(3 * l0 * l0 / (2 * a), 0.75);
    }
}
