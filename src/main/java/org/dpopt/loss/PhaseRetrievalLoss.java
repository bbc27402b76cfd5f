package org.dpopt.loss;

import org.dpopt.linalg.Checks;

/**
 * Robust phase retrieval loss f(w; (x, y)) = |Q(⟨w, x⟩) − y|, where Q is the square u² on the public
 * range |u| ≤ a, continued by its tangent lines outside it:
 *
 * <pre>
 *   Q(u) = u²                     if |u| ≤ a
 *   Q(u) = a² + 2a(|u| − a)       if |u| &gt; a
 *   φ(u, y) = |Q(u) − y|,   φ′(u, y) = sign(Q(u) − y) · 2·clamp(u, −a, a)   (φ′ = 0 when Q(u) = y)
 * </pre>
 *
 * <p>On rows with ‖x‖₂ ≤ R and a domain with |⟨w, x⟩| ≤ a (e.g. ‖w‖₂ ≤ a/R) this is exactly the
 * robust phase retrieval objective |⟨w,x⟩² − y| of Duchi and Ruan ("Solving (most) of a set of
 * quadratic equalities: composite optimization for robust phase retrieval", Information and
 * Inference 2019, arXiv:1705.02356). The continuation keeps the declared constants valid for
 * <em>every</em> w, which privacy needs:
 * <ul>
 *   <li>Lipschitz: |φ′| ≤ L₀ = 2a, so ‖∇f‖_q ≤ ‖∇f‖₂ ≤ 2aR for every q ≥ 2.
 *   <li>Weakly convex: Q is convex with Q′ = 2·clamp(u) and u² − Q convex, so Q − y is convex and
 *       y − Q is 2-weakly convex; their maximum φ is 2-weakly convex in u. Since
 *       ⟨x, v⟩² ≤ ‖x‖²_q‖v‖²_p ≤ R²‖v‖²_p for 1 ≤ p ≤ 2, f is ρ = 2R²-weakly convex w.r.t. ‖·‖_p.
 *   <li>Non-smooth (kinks where Q(u) = y), so {@link #scalarSmoothness()} is +∞.
 * </ul>
 */
public final class PhaseRetrievalLoss extends ScalarLoss {
    private final double a;

    /**
     * @param uMax the public range a &gt; 0 of |⟨w, x⟩| on which the loss is the exact |u² − y|
     * @throws IllegalArgumentException if a is not positive and finite
     */
    public PhaseRetrievalLoss(double uMax) {
        // L₀ = 2a; ρ = 2R² (weak convexity w.r.t. ‖·‖_p for any 1 ≤ p ≤ 2, rows with ‖x‖₂ ≤ R)
        super("phase-retrieval", 2 * Checks.positive("uMax", uMax), Double.POSITIVE_INFINITY,
                false, 2);
        this.a = uMax;
    }

    /** The range a. */
    public double uMax() {
        return a;
    }

    /** The range a (equal losses have the same range: the function is then the same). */
    @Override
    double parameter() {
        return a;
    }

    private double square(double u) {
        double au = Math.abs(u);
        return au <= a ? u * u : a * a + 2 * a * (au - a);
    }

    @Override
    public double phi(double u, double y) {
        return Math.abs(square(u) - y);
    }

    @Override
    public double derivative(double u, double y) {
        double r = square(u) - y;
        if (r == 0) {
            return 0;
        }
        double c = Math.max(-a, Math.min(a, u));
        return r > 0 ? 2 * c : -2 * c;
    }

    @Override
    public double secondDerivative(double u, double y) {
        return Math.abs(u) <= a ? Math.signum(square(u) - y) * 2 : 0;
    }

    @Override
    public String toString() {
        return "phase-retrieval(uMax=" + a + ")";
    }
}
