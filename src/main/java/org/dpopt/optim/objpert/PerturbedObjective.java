package org.dpopt.optim.objpert;

import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.oracle.DataPasses;
import org.ejml.data.DMatrixRMaj;

/**
 * The objective of (approximate) objective perturbation over a generalized linear loss:
 * J(w) = (1/n) Σᵢ φ(⟨w, xᵢ⟩, yᵢ) + ⟨b, w⟩ + λ‖w‖², minimized over a closed convex set W, where
 * b = G/n is the (already drawn) random linear term. J is μ = 2λ strongly convex and L_J = β + 2λ
 * smooth (β the declared smoothness of the loss on rows of norm at most R).
 *
 * <p>Also provides the certificates used as stopping rules: for w ∈ W and g = ∇J(w), strong convexity
 * gives J* ≥ min_{u∈W} J(w) + ⟨g, u − w⟩ + (μ/2)‖u − w‖², whose minimizer is u = Π_W(w − g/μ) (the
 * quadratic is isotropic), hence J(w) − J* ≤ −⟨g, u − w⟩ − (μ/2)‖u − w‖² (= ‖g‖²/(2μ) when W = ℝ^d)
 * and ‖w − ŵ‖ ≤ √(2(J(w) − J*)/μ); and the gradient-mapping bound ‖w − ŵ‖ ≤ 2‖G_L(w)‖/μ with
 * G_L(w) = L_J(w − Π_W(w − g/L_J)) (Nesterov, <i>Introductory Lectures on Convex Optimization</i>,
 * Kluwer 2004, Thm 2.2.7). Data enter only through {@link DataPasses}. Immutable (b is its own copy,
 * never modified); the caller owns the work vectors it passes.
 *
 * @param passes the data
 * @param loss the generalized linear loss φ
 * @param domain W
 * @param linear b (d×1), copied
 * @param lambda λ &gt; 0 (the coefficient of ‖w‖²)
 * @param lipschitz L, the declared per-example gradient bound
 * @param smoothness β, the declared per-example smoothness
 */
record PerturbedObjective(DataPasses passes, GeneralizedLinearLoss loss, ConvexSet domain, DMatrixRMaj linear,
        double lambda, double lipschitz, double smoothness) {

    /** Validates and copies b. */
    PerturbedObjective {
        Checks.notNull("passes", passes);
        Checks.notNull("loss", loss);
        Checks.notNull("domain", domain);
        Checks.vector("linear", linear, passes.dimension());
        linear = Checks.finiteVector("linear", linear).copy();
        Checks.positive("lambda", lambda);
        Checks.positive("lipschitz", lipschitz);
        Checks.nonNegative("smoothness", smoothness);
    }

    /** μ = 2λ. */
    double strongConvexity() {
        return 2 * lambda;
    }

    /** n. */
    long size() {
        return passes.size();
    }

    int dimension() {
        return passes.dimension();
    }

    /** ‖b‖₂. */
    double linearNorm() {
        return Vectors.norm2(linear);
    }

    /** J(w). Not modified: w. */
    double value(DMatrixRMaj w) {
        return passes.meanLoss(loss, w) + Vectors.dot(linear, w) + lambda * Vectors.dot(w, w);
    }

    /** ∇J(w) into out. Modified: out. Not modified: w. n derivative evaluations. */
    void gradient(DMatrixRMaj w, DMatrixRMaj out) {
        passes.meanGradient(loss, w, out);
        addRegularizer(w, out);
    }

    /**
     * ∇J(w) into out and the rows ids[0..count) from the same pass ({@link DataPasses#meanGradientAndRows}).
     * Modified: out. Not modified: w, ids.
     */
    DataPasses.Rows gradientAndRows(DMatrixRMaj w, DMatrixRMaj out, long[] ids, int count) {
        DataPasses.Rows rows = passes.meanGradientAndRows(loss, w, out, ids, count);
        addRegularizer(w, out);
        return rows;
    }

    /** out ← out + b + 2λw. */
    private void addRegularizer(DMatrixRMaj w, DMatrixRMaj out) {
        double[] o = out.data;
        double[] ws = w.data;
        double[] b = linear.data;
        for (int j = 0; j < o.length && j < ws.length; j++) {
            o[j] += b[j] + 2 * lambda * ws[j];
        }
    }

    /**
     * The Hessian of J + ν‖w‖² at w: (1/n) Σ φ″ xᵢxᵢᵀ + 2(λ + ν)I. Modified: h (d×d). Not modified: w.
     */
    void hessian(DMatrixRMaj w, double nu, DMatrixRMaj h) {
        passes.meanHessian(loss, w, h);
        int d = dimension();
        for (int a = 0; a < d; a++) {
            h.data[a * d + a] += 2 * (lambda + nu);
        }
    }

    /**
     * Certified bound on J(w) − min_W J from g = ∇J(w), for w ∈ W (see the class comment).
     * Modified: work (d×1). Not modified: w, g.
     */
    double suboptimalityBound(DMatrixRMaj w, DMatrixRMaj g, DMatrixRMaj work) {
        double mu = strongConvexity();
        Vectors.copy(w, work);
        Vectors.axpy(-1 / mu, g, work);
        domain.project(work);
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
     * The gradient-mapping distance bound ‖w − ŵ‖ ≤ 2‖G_L(w)‖/μ, linear rather than square-root in
     * rounding errors. For w ∈ W, g = ∇J(w). Modified: work. Not modified: w, g.
     */
    double gradientMappingDistance(DMatrixRMaj w, DMatrixRMaj g, DMatrixRMaj work) {
        double lj = smoothness + 2 * lambda;
        Vectors.copy(w, work);
        Vectors.axpy(-1 / lj, g, work);
        domain.project(work);
        return 2 * lj * Vectors.distance2(w, work) / strongConvexity();
    }

    /** The distance bound ‖w − ŵ‖ ≤ √(2·gap/μ) implied by a suboptimality bound. */
    double distanceBound(double gap) {
        return Math.sqrt(2 * gap / strongConvexity());
    }
}
