package org.dpopt.linalg;

import org.ejml.data.DMatrixRMaj;

/** ℓp norms and their duals on d×1 vectors. */
public final class Norms {
    private Norms() {
    }

    /** ‖v‖_p for p ∈ [1, ∞]. */
    public static double lp(DMatrixRMaj v, double p) {
        if (!(p >= 1)) {
            throw Checks.fail("p", "at least 1", p);
        }
        int d = Vectors.length(v);
        if (p == 1) {
            double s = 0;
            for (int i = 0; i < d; i++) {
                s += Math.abs(v.data[i]);
            }
            return s;
        }
        if (p == 2) {
            return Vectors.norm2(v);
        }
        if (Double.isInfinite(p)) {
            double m = 0;
            for (int i = 0; i < d; i++) {
                m = Math.max(m, Math.abs(v.data[i]));
            }
            return m;
        }
        // scale by the max entry for stability
        double m = 0;
        for (int i = 0; i < d; i++) {
            m = Math.max(m, Math.abs(v.data[i]));
        }
        if (m == 0) {
            return 0;
        }
        double s = 0;
        for (int i = 0; i < d; i++) {
            s += Math.pow(Math.abs(v.data[i]) / m, p);
        }
        return m * Math.pow(s, 1 / p);
    }

    /** The dual exponent q with 1/p + 1/q = 1 (q = ∞ for p = 1). */
    public static double dualExponent(double p) {
        if (!(p >= 1)) {
            throw Checks.fail("p", "at least 1", p);
        }
        if (p == 1) {
            return Double.POSITIVE_INFINITY;
        }
        if (Double.isInfinite(p)) {
            return 1;
        }
        return p / (p - 1);
    }

    /** The dual norm ‖v‖_q of ‖·‖_p. */
    public static double dual(DMatrixRMaj v, double p) {
        return lp(v, dualExponent(p));
    }

    /**
     * The exponent p̃ = max(p, 1 + 1/ln d) used by ℓp algorithms for p close to 1:
     * for d ≥ 3, ‖·‖_p̃ is within a constant factor (e) of ‖·‖₁ while 1/(p̃ − 1) = ln d keeps strong
     * convexity constants finite. When ln d ≤ 1 (d ≤ 2) the formula gives at least 2, so the result is
     * max(p, 2).
     */
    public static double effectiveExponent(double p, int d) {
        if (!(p >= 1)) {
            throw Checks.fail("p", "at least 1", p);
        }
        Checks.atLeastOne("d", d);
        double ln = Math.log(d);
        if (ln <= 1) {
            return Math.max(p, 2.0);
        }
        return Math.max(p, 1 + 1 / ln);
    }
    /**
     * The maximizer of ⟨v, g⟩ over the unit ℓp ball, 1 &lt; p ≤ 2 (Hölder's equality case):
     * {@code v_k = sign(g_k) |g_k|^{q−1} / ‖g‖_q^{q−1}}, so that ⟨v, g⟩ = ‖g‖_q and ‖v‖_p = 1. Computed with
     * g scaled by max|g_k| so that large q does not overflow. For g = 0 writes 0. Modified: out (may be g).
     */
    public static void dualMaximizer(DMatrixRMaj g, double p, DMatrixRMaj out) {
        if (!(p > 1 && p <= 2)) {
            throw Checks.fail("p", "in (1, 2]", p);
        }
        int d = Vectors.length(g);
        Checks.vector("out", out, d);
        double q = p / (p - 1);
        double m = 0;
        for (int i = 0; i < d; i++) {
            m = Math.max(m, Math.abs(g.data[i]));
        }
        if (m == 0) {
            java.util.Arrays.fill(out.data, 0, d, 0.0);
            return;
        }
        double s = 0;
        for (int i = 0; i < d; i++) {
            s += Math.pow(Math.abs(g.data[i]) / m, q);
        }
        // ‖g/m‖_q^{q−1} = s^{(q−1)/q} = s^{1/p}
        double denom = Math.pow(s, 1 / p);
        for (int i = 0; i < d; i++) {
            double u = Math.abs(g.data[i]) / m;
            out.data[i] = Math.copySign(Math.pow(u, q - 1) / denom, g.data[i]);
        }
    }
}
