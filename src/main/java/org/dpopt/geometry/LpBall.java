package org.dpopt.geometry;

import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Norms;
import org.dpopt.linalg.Vectors;
import org.ejml.data.DMatrixRMaj;

/**
 * The ℓp ball {‖w‖_p ≤ r}, 1 &lt; p ≤ 2, with its closed-form linear minimization oracle
 * {@code argmin_{‖v‖_p ≤ r} ⟨v, g⟩ = −r · sign(g)|g|^{q−1}/‖g‖_q^{q−1}} (q = p/(p−1)), and a Euclidean
 * projection by nested bisection. For p ≤ 2, ‖w‖₂ ≤ ‖w‖_p, so the ℓ2 radius is r and the ℓ2 diameter
 * 2r — the constants Gaussian sensitivities are computed from.
 *
 * @param p the exponent in (1, 2]
 * @param r the radius &gt; 0
 */
public record LpBall(double p, double r) implements ConvexSet {

    /** Validates. */
    public LpBall {
        if (!(p > 1 && p <= 2)) {
            throw Checks.fail("p", "in (1, 2]", p);
        }
        Checks.positive("r", r);
    }

    /** The ball with p̃ = max(p, 1 + 1/ln d) in place of p (ALGORITHMS.md §4.0), for p close to 1. */
    public static LpBall effective(double p, int d, double r) {
        return new LpBall(Math.min(2.0, Norms.effectiveExponent(p, d)), r);
    }

    /** out = argmin_{v ∈ ball} ⟨v, g⟩ (0 if g = 0). Modified: out (may alias g). */
    public void lmo(DMatrixRMaj g, DMatrixRMaj out) {
        Norms.dualMaximizer(g, p, out);
        Vectors.scale(-r, out);
    }

    /**
     * Euclidean projection: for ‖w‖_p &gt; r, x_k = sign(w_k) s_k with s_k + λ p s_k^{p−1} = |w_k| and
     * λ ≥ 0 chosen by bisection so that ‖x‖_p = r (KKT conditions of min ½‖x − w‖² s.t. ‖x‖_p^p ≤ r^p).
     */
    @Override
    public void project(DMatrixRMaj w) {
        int d = Vectors.length(w);
        if (Norms.lp(w, p) <= r) {
            return;
        }
        double lo = 0;
        double hi = 1;
        while (pnorm(w, d, hi) > r) {
            hi *= 2;
        }
        for (int it = 0; it < 100; it++) {
            double mid = 0.5 * (lo + hi);
            if (pnorm(w, d, mid) > r) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        for (int k = 0; k < d; k++) {
            w.data[k] = Math.copySign(shrink(Math.abs(w.data[k]), hi), w.data[k]);
        }
    }

    private double pnorm(DMatrixRMaj w, int d, double lambda) {
        double s = 0;
        for (int k = 0; k < d; k++) {
            s += Math.pow(shrink(Math.abs(w.data[k]), lambda), p);
        }
        return Math.pow(s, 1 / p);
    }

    /** The root s ∈ [0, a] of s + λ p s^{p−1} = a (increasing in s), by bisection. */
    private double shrink(double a, double lambda) {
        if (a == 0) {
            return 0;
        }
        double lo = 0;
        double hi = a;
        for (int it = 0; it < 60; it++) {
            double mid = 0.5 * (lo + hi);
            if (mid + lambda * p * Math.pow(mid, p - 1) > a) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return lo;
    }

    @Override
    public double diameter(int d) {
        return 2 * r;
    }

    @Override
    public double radius(int d) {
        return r;
    }

    @Override
    public boolean isBounded() {
        return true;
    }

    @Override
    public boolean contains(DMatrixRMaj w, double tol) {
        return Norms.lp(w, p) <= r + tol;
    }
}
