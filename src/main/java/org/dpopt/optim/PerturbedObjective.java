package org.dpopt.optim;

import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.ejml.data.DMatrixRMaj;

/**
 * The objective of (approximate) objective perturbation over a generalized linear loss:
 * J(w) = (1/n) Σᵢ φ(⟨w, xᵢ⟩, yᵢ) + ⟨b, w⟩ + λ‖w‖², minimized over a closed convex set W, where
 * b = G/n is the (already drawn) random linear term. J is μ = 2λ strongly convex.
 *
 * <p>Also provides the suboptimality certificate used as a stopping rule: for w ∈ W and g = ∇J(w),
 * strong convexity gives J* ≥ min_{u∈W} J(w) + ⟨g, u − w⟩ + (μ/2)‖u − w‖², whose minimizer is
 * u = Π_W(w − g/μ) (the quadratic is isotropic), hence
 * J(w) − J* ≤ −⟨g, u − w⟩ − (μ/2)‖u − w‖² (= ‖g‖²/(2μ) when W = ℝ^d), and then
 * ‖w − ŵ‖ ≤ √(2(J(w) − J*)/μ). Immutable; the caller owns the work vectors it passes.
 */
public final class PerturbedObjective {
    private final Dataset data;
    private final GeneralizedLinearLoss loss;
    private final ConvexSet domain;
    private final DMatrixRMaj linear;
    private final double lambda;

    /**
     * @param data the dataset
     * @param loss the generalized linear loss φ
     * @param domain W
     * @param linear b (d×1), copied
     * @param lambda λ &gt; 0 (the coefficient of ‖w‖²)
     */
    public PerturbedObjective(Dataset data, GeneralizedLinearLoss loss, ConvexSet domain, DMatrixRMaj linear,
            double lambda) {
        this.data = Checks.notNull("data", data);
        this.loss = Checks.notNull("loss", loss);
        this.domain = Checks.notNull("domain", domain);
        Checks.vector("linear", linear, data.dimension());
        this.linear = Checks.finiteVector("linear", linear).copy();
        this.lambda = Checks.positive("lambda", lambda);
    }

    /** The dataset. */
    public Dataset data() {
        return data;
    }

    /** φ. */
    public GeneralizedLinearLoss loss() {
        return loss;
    }

    /** W. */
    public ConvexSet domain() {
        return domain;
    }

    /** λ. */
    public double lambda() {
        return lambda;
    }

    /** The strong-convexity modulus μ = 2λ. */
    public double strongConvexity() {
        return 2 * lambda;
    }

    /** d. */
    public int dimension() {
        return data.dimension();
    }

    /** ‖b‖₂. */
    public double linearNorm() {
        return Vectors.norm2(linear);
    }

    /** b[j]. */
    double linear(int j) {
        return linear.data[j];
    }

    /** J(w). Not modified: w. */
    public double value(DMatrixRMaj w) {
        int n = data.size();
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += loss.phi(data.dot(i, w), data.label(i));
        }
        return s / n + Vectors.dot(linear, w) + lambda * Vectors.dot(w, w);
    }

    /**
     * ∇J(w) into out; if {@code derivatives} is non-null, φ′(⟨w, xᵢ⟩, yᵢ) is stored in it (used by SVRG as
     * the snapshot's per-example scalars). Modified: out, derivatives. Not modified: w. n gradient evaluations.
     */
    public void gradient(DMatrixRMaj w, DMatrixRMaj out, double[] derivatives) {
        int n = data.size();
        Vectors.zero(out);
        for (int i = 0; i < n; i++) {
            double g = loss.derivative(data.dot(i, w), data.label(i));
            if (derivatives != null) {
                derivatives[i] = g;
            }
            data.addScaledRow(i, g / n, out);
        }
        double[] o = out.data;
        double[] ws = w.data;
        double[] b = linear.data;
        for (int j = 0; j < o.length && j < ws.length; j++) {
            o[j] += b[j] + 2 * lambda * ws[j];
        }
    }

    /**
     * Certified bound on J(w) − min_W J from g = ∇J(w), for w ∈ W (see the class comment).
     * Modified: work (d×1). Not modified: w, g.
     */
    public double suboptimalityBound(DMatrixRMaj w, DMatrixRMaj g, DMatrixRMaj work) {
        double mu = strongConvexity();
        Vectors.copy(w, work);
        Vectors.axpy(-1 / mu, g, work);
        domain.project(work);
        // work = u; bound = −⟨g, u − w⟩ − (μ/2)‖u − w‖²
        double lin = 0;
        double sq = 0;
        for (int j = 0; j < work.numRows; j++) {
            double diff = work.data[j] - w.data[j];
            lin += g.data[j] * diff;
            sq += diff * diff;
        }
        return Math.max(0, -lin - 0.5 * mu * sq);
    }

    /**
     * A second certified distance bound, linear rather than square-root in rounding errors:
     * ‖w − ŵ‖ ≤ 2‖G(w)‖/μ with the gradient mapping G(w) = L_J(w − Π_W(w − g/L_J)) and
     * L_J = β + 2λ ≥ the smoothness of J (Nesterov, Introductory Lectures, Thm 2.2.7). For w ∈ W, g = ∇J(w).
     * Modified: work. Not modified: w, g.
     */
    public double gradientMappingDistance(DMatrixRMaj w, DMatrixRMaj g, DMatrixRMaj work) {
        double lj = loss.smoothness(data.rowNormBound()) + 2 * lambda;
        Vectors.copy(w, work);
        Vectors.axpy(-1 / lj, g, work);
        domain.project(work);
        return 2 * lj * Vectors.distance2(w, work) / strongConvexity();
    }

    /** The distance bound ‖w − ŵ‖ ≤ √(2·gap/μ) implied by a suboptimality bound. */
    public double distanceBound(double gap) {
        return Math.sqrt(2 * gap / strongConvexity());
    }

    /**
     * The Hessian of J + ν‖w‖² at w: (1/n) Σ φ″ xᵢxᵢᵀ + 2(λ + ν)I (φ″ taken where it exists; at kinks of
     * piecewise-quadratic φ a one-sided value). Modified: h (d×d), row (d×1 work). Not modified: w.
     */
    void hessian(DMatrixRMaj w, double nu, DMatrixRMaj h, DMatrixRMaj row) {
        int n = data.size();
        int d = data.dimension();
        double[] hs = h.data;
        java.util.Arrays.fill(hs, 0, d * d, 0.0);
        double[] x = row.data;
        for (int i = 0; i < n; i++) {
            double c = loss.secondDerivative(data.dot(i, w), data.label(i)) / n;
            if (c == 0) {
                continue;
            }
            data.row(i, row);
            int off = 0;
            for (int a = 0; a < d; a++) {
                double ca = c * x[off + a];
                if (ca == 0) {
                    continue;
                }
                int base = a * d;
                for (int bIdx = a; bIdx < d; bIdx++) {
                    hs[base + bIdx] += ca * x[off + bIdx];
                }
            }
        }
        for (int a = 0; a < d; a++) {
            hs[a * d + a] += 2 * (lambda + nu);
            for (int bIdx = 0; bIdx < a; bIdx++) {
                hs[a * d + bIdx] = hs[bIdx * d + a];
            }
        }
    }
}
