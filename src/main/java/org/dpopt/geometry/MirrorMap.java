package org.dpopt.geometry;

import org.apache.commons.math3.special.Gamma;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Norms;
import org.dpopt.linalg.Vectors;
import org.ejml.data.DMatrixRMaj;

/**
 * The ℓp mirror map for 1 ≤ p ≤ 2 in dimension d:
 *
 * <pre>
 *   p̃ = max(p, 1 + 1/ln d)   ({@link Norms#effectiveExponent}),   κ = 1/(p̃ − 1),   q̃ = p̃/(p̃ − 1)
 *   ψ(v)      = ‖v‖²_p̃ / (2(p̃ − 1)) = (κ/2)‖v‖²_p̃
 *   ∇ψ(v)_j   = κ ‖v‖_p̃^{2−p̃} sign(v_j)|v_j|^{p̃−1}
 *   ψ*(θ)     = ‖θ‖²_q̃ / (2κ)
 *   ∇ψ*(θ)_j  = (1/κ) ‖θ‖_q̃^{2−q̃} sign(θ_j)|θ_j|^{q̃−1}       (∇ψ* = (∇ψ)⁻¹)
 *   D_ψ(u, w) = ψ(u) − ψ(w) − ⟨∇ψ(w), u − w⟩
 * </pre>
 *
 * <p>ψ is 1-strongly convex with respect to ‖·‖_p̃ (for 1 &lt; p̃ ≤ 2 the function ½‖·‖²_p̃ is
 * (p̃ − 1)-strongly convex; Ball, Carlen, Lieb 1994; used in this form by Bassily, Guzmán, Menart,
 * "Differentially Private Stochastic Optimization: New Results in Convex and Non-Convex Settings",
 * NeurIPS 2021, arXiv:2107.05585, and Asi, Feldman, Koren, Talwar, "Private Stochastic Convex
 * Optimization: Optimal Rates in ℓ1 Geometry", ICML 2021, arXiv:2103.01516). p = 2 is the Euclidean
 * case: ψ = ½‖·‖², ∇ψ = ∇ψ* = identity.
 *
 * <p><b>Bregman projection onto a centred ball.</b> Because ψ depends on v only through ‖v‖_p̃, the
 * Bregman projection of y onto B = {v : ‖v‖_p̃ ≤ r}, argmin_{v∈B} D_ψ(v, y), is the radial scaling
 * y·min(1, r/‖y‖_p̃) (derivation in {@code theory-notes/mirror-descent.md}): for fixed ‖v‖ = s the
 * linear term −⟨∇ψ(y), v⟩ is smallest at v = s·y/‖y‖ (∇ψ(y) is the dual-norm-aligned direction of
 * y), and then (κ/2)s² − κ s‖y‖ is minimized over [0, r] at s = min(r, ‖y‖). For a ball centred at c
 * apply this to the shifted map ψ(· − c).
 *
 * <p>Immutable; the vector methods do not allocate.
 */
public final class MirrorMap {
    private final int dimension;
    private final double p;
    private final double pTilde;
    private final double qTilde;
    private final double kappa;

    private MirrorMap(int dimension, double p) {
        this.dimension = dimension;
        this.p = p;
        this.pTilde = Norms.effectiveExponent(p, dimension);
        this.qTilde = Norms.dualExponent(pTilde);
        this.kappa = 1 / (pTilde - 1);
    }

    /**
     * The ℓp mirror map in dimension d.
     *
     * @param p the geometry, 1 ≤ p ≤ 2
     * @param dimension d ≥ 1
     * @throws IllegalArgumentException if p ∉ [1, 2] or d &lt; 1
     */
    public static MirrorMap lp(double p, int dimension) {
        Checks.inRange("p", p, 1, 2);
        Checks.atLeastOne("dimension", dimension);
        return new MirrorMap(dimension, p);
    }

    /** The Euclidean map ψ = ½‖·‖² (p = 2). */
    public static MirrorMap euclidean(int dimension) {
        return lp(2, dimension);
    }

    /** d. */
    public int dimension() {
        return dimension;
    }

    /** The requested p. */
    public double p() {
        return p;
    }

    /** p̃ = max(p, 1 + 1/ln d), the exponent actually used. */
    public double effectiveP() {
        return pTilde;
    }

    /** The dual exponent q̃ = p̃/(p̃ − 1). */
    public double dualP() {
        return qTilde;
    }

    /** κ = 1/(p̃ − 1) (at most ln d for p = 1, d ≥ 3; 1 for p = 2). */
    public double kappa() {
        return kappa;
    }

    /** ‖v‖_p̃. Not modified: v. */
    public double norm(DMatrixRMaj v) {
        Checks.vector("v", v, dimension);
        return Norms.lp(v, pTilde);
    }

    /** ‖θ‖_q̃, the dual norm. Not modified: θ. */
    public double dualNorm(DMatrixRMaj theta) {
        Checks.vector("theta", theta, dimension);
        return Norms.lp(theta, qTilde);
    }

    /** ψ(v) = (κ/2)‖v‖²_p̃. Not modified: v. */
    public double value(DMatrixRMaj v) {
        double n = norm(v);
        return 0.5 * kappa * n * n;
    }

    /** ψ*(θ) = ‖θ‖²_q̃/(2κ). Not modified: θ. */
    public double conjugateValue(DMatrixRMaj theta) {
        double n = dualNorm(theta);
        return n * n / (2 * kappa);
    }

    /** out ← ∇ψ(v). Modified: out. Not modified: v. out may alias v. */
    public void gradient(DMatrixRMaj v, DMatrixRMaj out) {
        Checks.vector("out", out, dimension);
        double n = norm(v);
        powerMap(v.data, out.data, n, pTilde, kappa);
    }

    /** out ← ∇ψ*(θ) = (∇ψ)⁻¹(θ). Modified: out. Not modified: θ. out may alias θ. */
    public void conjugateGradient(DMatrixRMaj theta, DMatrixRMaj out) {
        Checks.vector("out", out, dimension);
        double n = dualNorm(theta);
        powerMap(theta.data, out.data, n, qTilde, 1 / kappa);
    }

    /**
     * out_j = scale·‖x‖·sign(x_j)(|x_j|/‖x‖)^{r−1}, which equals scale·‖x‖^{2−r} sign(x_j)|x_j|^{r−1}
     * but is computed without overflow for large r.
     */
    private void powerMap(double[] x, double[] out, double normX, double r, double scale) {
        if (normX == 0) {
            java.util.Arrays.fill(out, 0, dimension, 0.0);
            return;
        }
        double f = scale * normX;
        if (r == 2) {
            for (int j = 0; j < dimension; j++) {
                out[j] = scale * x[j];
            }
            return;
        }
        for (int j = 0; j < dimension; j++) {
            double a = Math.abs(x[j]) / normX;
            double m = a == 0 ? 0 : f * Math.pow(a, r - 1);
            out[j] = x[j] < 0 ? -m : m;
        }
    }

    /**
     * The Bregman divergence D_ψ(u, w). Not modified: u, w.
     *
     * @param work a d×1 scratch vector (modified)
     */
    public double bregman(DMatrixRMaj u, DMatrixRMaj w, DMatrixRMaj work) {
        Checks.vector("u", u, dimension);
        gradient(w, work);
        double s = 0;
        for (int j = 0; j < dimension; j++) {
            s += work.data[j] * (u.data[j] - w.data[j]);
        }
        return Math.max(0, value(u) - value(w) - s);
    }

    /**
     * The Bregman projection (w.r.t. ψ(· − c)) onto the ball {w : ‖w − c‖_p̃ ≤ r}, in place: w ← c +
     * (w − c)·min(1, r/‖w − c‖_p̃). Modified: w. Not modified: c.
     *
     * @return the scaling factor applied (1 if w was inside)
     */
    public double projectBall(DMatrixRMaj c, double r, DMatrixRMaj w) {
        Checks.vector("c", c, dimension);
        Checks.vector("w", w, dimension);
        Checks.nonNegative("r", r);
        double nrm = distance(w, c);
        if (nrm <= r) {
            return 1.0;
        }
        double f = r / nrm;
        for (int j = 0; j < dimension; j++) {
            w.data[j] = c.data[j] + f * (w.data[j] - c.data[j]);
        }
        return f;
    }

    /** ‖u − w‖_p̃ without allocating. Not modified: u, w. */
    public double distance(DMatrixRMaj u, DMatrixRMaj w) {
        Checks.vector("u", u, dimension);
        Checks.vector("w", w, dimension);
        double m = 0;
        for (int j = 0; j < dimension; j++) {
            m = Math.max(m, Math.abs(u.data[j] - w.data[j]));
        }
        if (m == 0) {
            return 0;
        }
        double s = 0;
        for (int j = 0; j < dimension; j++) {
            double a = Math.abs(u.data[j] - w.data[j]) / m;
            s += pTilde == 2 ? a * a : Math.pow(a, pTilde);
        }
        return m * Math.pow(s, 1 / pTilde);
    }

    /**
     * An upper bound on E‖Z‖²_q̃ for Z ~ N(0, I_d): (d·E|Z₁|^q̃)^{2/q̃} by Jensen (q̃ ≥ 2), with
     * E|Z₁|^r = 2^{r/2}Γ((r+1)/2)/√π. Equals d for p̃ = 2 and is O(ln d) for p = 1. It is how the
     * Gaussian noise of a private gradient enters the dual-norm error of mirror descent.
     */
    public double gaussianDualNormSquaredBound() {
        double r = qTilde;
        double logMoment = 0.5 * r * Math.log(2) + Gamma.logGamma((r + 1) / 2) - 0.5 * Math.log(Math.PI);
        return Math.exp((2 / r) * (Math.log(dimension) + logMoment));
    }

    /** The Bregman projection onto the centred ball {w : ‖w‖_p̃ ≤ r}, in place (radial scaling). Modified: w. */
    public void projectCentredBall(double r, DMatrixRMaj w) {
        double nrm = norm(w);
        if (nrm > r) {
            Vectors.scale(r / nrm, w);
        }
    }

    @Override
    public String toString() {
        return "MirrorMap[p=" + p + ", pTilde=" + pTilde + ", d=" + dimension + "]";
    }
}
