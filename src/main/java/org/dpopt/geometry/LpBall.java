package org.dpopt.geometry;

import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Norms;
import org.dpopt.linalg.Vectors;
import org.ejml.data.DMatrixRMaj;

/**
 * The ℓp ball {‖w‖_p ≤ r}, 1 &lt; p ≤ 2, with its closed-form linear minimization oracle
 * {@code argmin_{‖v‖_p ≤ r} ⟨v, g⟩ = −r · sign(g)|g|^{q−1}/‖g‖_q^{q−1}} (q = p/(p−1)), and a Euclidean
 * projection by nested bisection. For p ≤ 2, ‖w‖₂ ≤ ‖w‖_p, so the ℓ2 radius is r and the ℓ2 diameter
 * 2r in every dimension — the constants Gaussian sensitivities are computed from.
 *
 * <p>The exponent is either fixed ({@link #LpBall(double, double)}) or a function of the dimension
 * ({@link #effective}). For p close to 1, ½‖·‖²_p is only (p − 1)-strongly convex, so one works in
 * the ℓ_p̃ ball with p̃ = max(p, 1 + 1/ln d): then ‖x‖₁ ≤ d^{1−1/p̃}‖x‖_p̃ ≤ e‖x‖_p̃, the ℓ1 geometry is
 * kept up to the factor e and the strong convexity constant is 1/ln d (Ben-Tal, Margalit, Nemirovski,
 * "The Ordered Subsets Mirror Descent Optimization Method with Applications to Tomography", SIAM J.
 * Optim. 2001; for private optimization Bassily, Guzmán, Nandi, "Non-Euclidean Differentially Private
 * Stochastic Convex Optimization", COLT 2021, arXiv:2103.01278). Since p̃ ≥ p, the ℓ_p̃ ball contains
 * the ℓp ball of the same radius. Every operation takes the dimension from its vector. Immutable.
 */
public final class LpBall implements CentredBall {
    private final double p;
    private final double r;
    private final boolean effective;

    /**
     * The ℓp ball with a fixed exponent.
     *
     * @param p the exponent in (1, 2]
     * @param r the radius &gt; 0
     */
    public LpBall(double p, double r) {
        this(p, r, false);
        if (!(p > 1 && p <= 2)) {
            throw Checks.fail("p", "in (1, 2]", p);
        }
    }

    private LpBall(double p, double r, boolean effective) {
        this.p = p;
        this.r = Checks.positive("r", r);
        this.effective = effective;
    }

    /**
     * The ℓ_p̃ ball of radius r with the dimension-dependent exponent p̃(d) = min(2, max(p, 1 + 1/ln d))
     * ({@link Norms#effectiveExponent}), for p ≥ 1 close to 1 (p = 1: the relaxation of the ℓ1 ball).
     */
    public static LpBall effective(double p, double r) {
        Norms.effectiveExponent(p, 1); // validates p ≥ 1
        return new LpBall(p, r, true);
    }

    /** The exponent in dimension d. */
    public double p(int d) {
        return effective ? Math.min(2.0, Norms.effectiveExponent(p, d)) : p;
    }

    /** The radius r. */
    public double r() {
        return r;
    }

    /** out = argmin_{v ∈ ball} ⟨v, g⟩ (0 if g = 0). Modified: out (may alias g). */
    public void lmo(DMatrixRMaj g, DMatrixRMaj out) {
        Norms.dualMaximizer(g, p(g.numRows), out);
        Vectors.scale(-r, out);
    }

    /**
     * Euclidean projection: for ‖w‖_p &gt; r, x_k = sign(w_k) s_k with s_k + λ p s_k^{p−1} = |w_k| and
     * λ ≥ 0 chosen by bisection so that ‖x‖_p = r (KKT conditions of min ½‖x − w‖² s.t. ‖x‖_p^p ≤ r^p).
     */
    @Override
    public void project(DMatrixRMaj w) {
        int d = Vectors.length(w);
        double q = p(d);
        if (Norms.lp(w, q) <= r) {
            return;
        }
        double lo = 0;
        double hi = 1;
        while (pnorm(w, d, q, hi) > r) {
            hi *= 2;
        }
        for (int it = 0; it < 100; it++) {
            double mid = 0.5 * (lo + hi);
            if (pnorm(w, d, q, mid) > r) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        for (int k = 0; k < d; k++) {
            w.data[k] = Math.copySign(shrink(Math.abs(w.data[k]), q, hi), w.data[k]);
        }
    }

    private static double pnorm(DMatrixRMaj w, int d, double q, double lambda) {
        double s = 0;
        for (int k = 0; k < d; k++) {
            s += Math.pow(shrink(Math.abs(w.data[k]), q, lambda), q);
        }
        return Math.pow(s, 1 / q);
    }

    /** The root s ∈ [0, a] of s + λ q s^{q−1} = a (increasing in s), by bisection. */
    private static double shrink(double a, double q, double lambda) {
        if (a == 0) {
            return 0;
        }
        double lo = 0;
        double hi = a;
        for (int it = 0; it < 60; it++) {
            double mid = 0.5 * (lo + hi);
            if (mid + lambda * q * Math.pow(mid, q - 1) > a) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return lo;
    }

    @Override
    public boolean contains(DMatrixRMaj w, double tol) {
        return Norms.lp(w, p(Vectors.length(w))) <= r + tol;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LpBall b && Double.compare(b.p, p) == 0 && Double.compare(b.r, r) == 0
                && b.effective == effective;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(p) * 31 + Double.hashCode(r) + (effective ? 17 : 0);
    }

    @Override
    public String toString() {
        return (effective ? "l_p~ ball (p~ = max(" + p + ", 1 + 1/ln d))" : "l" + p + " ball") + " of radius " + r;
    }
}
