package org.dpopt.oracle;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.Loss;
import org.ejml.data.DMatrixRMaj;

/**
 * Gradient of the Moreau envelope of a general convex L-Lipschitz loss, by an inner subgradient method
 * on the prox problem (the approximate-prox step of A_ProxGD):
 *
 * <pre>
 *   f_β(w; z) = min_{v∈ℝ^d} f(v; z) + (β/2)‖v − w‖²,       ∇f_β(w; z) = β (w − v*),
 *   h(v) = f(v; z) + (β/2)‖v − w‖²   (β-strongly convex; v* ∈ B(w, L/β)).
 * </pre>
 *
 * The inner method is projected subgradient descent on B(w, L/β) (where ‖∂h‖ ≤ 2L) with steps
 * 2/(β(k+1)) and the k-weighted average of the iterates (Lacoste-Julien, Schmidt, Bach 2012), giving
 * h(v̄) − h(v*) ≤ 8L²/(β(τ+1)), hence ‖v̄ − v*‖ ≤ 4L/(β√(τ+1)) and a gradient error ≤ 4L/√(τ+1). So
 * τ = ⌈16L²/α² − 1⌉ inner steps give accuracy α. The returned vector is clipped to norm L, so it never
 * exceeds the declared bound whatever the inner accuracy.
 *
 * <p>The prox is taken over ℝ^d, not over the constraint set W as in the paper: then f_β is L-Lipschitz
 * (with the prox over W it is only 2L-Lipschitz, ALGORITHMS.md §0.2), which is what the clip to L keeps
 * exactly. Reference: Bassily, Feldman, Talwar, Thakurta, "Private Stochastic Convex Optimization with
 * Optimal Rates", NeurIPS 2019, arXiv:1908.09970, §4 (A_ProxGD); ALGORITHMS.md §2.3.
 *
 * <p><b>Not thread-safe:</b> an instance holds scratch vectors so that the inner loop does not allocate;
 * create one per run (optimizers do).
 */
public final class MoreauEnvelopeOracle implements GradientOracle {
    private final Loss loss;
    private final double lipschitz;
    private final double beta;
    private final double accuracy;
    private final int innerSteps;
    private final DMatrixRMaj v;
    private final DMatrixRMaj vBar;
    private final DMatrixRMaj g;

    private MoreauEnvelopeOracle(Loss loss, double lipschitz, double beta, double accuracy, int innerSteps, int d) {
        this.loss = loss;
        this.lipschitz = lipschitz;
        this.beta = beta;
        this.accuracy = accuracy;
        this.innerSteps = innerSteps;
        this.v = new DMatrixRMaj(d, 1);
        this.vBar = new DMatrixRMaj(d, 1);
        this.g = new DMatrixRMaj(d, 1);
    }

    /**
     * An oracle for ∇f_β with gradient accuracy α.
     *
     * @param loss a convex loss
     * @param lipschitz its declared Lipschitz bound L (finite)
     * @param beta smoothing parameter β &gt; 0
     * @param accuracy α &gt; 0, the guaranteed ℓ2 error of the returned gradient (before the clip, which
     *     can only reduce it)
     * @param dimension d
     */
    public static MoreauEnvelopeOracle of(Loss loss, double lipschitz, double beta, double accuracy, int dimension) {
        Checks.notNull("loss", loss);
        Checks.positive("lipschitz", lipschitz);
        Checks.finite("lipschitz", lipschitz);
        Checks.positive("beta", beta);
        Checks.positive("accuracy", accuracy);
        Checks.atLeastOne("dimension", dimension);
        if (loss.convexity() != Loss.Convexity.CONVEX) {
            throw Checks.fail("convexity of " + loss.name(), "CONVEX for the Moreau envelope oracle", loss.convexity());
        }
        long tau = innerStepsFor(lipschitz, accuracy);
        if (tau > Integer.MAX_VALUE) {
            throw Checks.fail("inner steps 16L^2/alpha^2", "at most " + Integer.MAX_VALUE + " (raise the accuracy)", tau);
        }
        return new MoreauEnvelopeOracle(loss, lipschitz, beta, accuracy, (int) tau, dimension);
    }

    /** τ = max(1, ⌈16L²/α² − 1⌉), the inner steps that guarantee accuracy α. */
    public static long innerStepsFor(double lipschitz, double accuracy) {
        Checks.positive("lipschitz", lipschitz);
        Checks.positive("accuracy", accuracy);
        double r = lipschitz / accuracy;
        return Math.max(1L, (long) Math.ceil(16 * r * r - 1 - 1e-9));
    }

    /** The guaranteed gradient error 4L/√(τ+1) for the inner step count used (≤ α). */
    public double errorBound() {
        return 4 * lipschitz / Math.sqrt(innerSteps + 1.0);
    }

    /** τ, inner subgradient steps per gradient. */
    public int innerSteps() {
        return innerSteps;
    }

    /** β. */
    public double beta() {
        return beta;
    }

    /** α. */
    public double accuracy() {
        return accuracy;
    }

    /**
     * The approximate prox point v̄ of w for row i, written into out. Modified: out. Not modified: w.
     */
    public void proxPoint(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj out) {
        Checks.vector("w", w, v.numRows);
        Checks.vector("out", out, v.numRows);
        solve(w, data, i);
        Vectors.copy(vBar, out);
    }

    private void solve(DMatrixRMaj w, Dataset data, int i) {
        double radius = lipschitz / beta;
        Vectors.copy(w, v);
        Vectors.zero(vBar);
        double weightSum = 0;
        double[] vs = v.data;
        double[] ws = w.data;
        double[] gs = g.data;
        int d = v.numRows;
        for (int k = 1; k <= innerSteps; k++) {
            // v̄ accumulates k·v_k (v_1 = w)
            weightSum += k;
            Vectors.axpy(k, v, vBar);
            loss.gradient(v, data, i, g);
            double step = 2.0 / (beta * (k + 1));
            double dist2 = 0;
            for (int j = 0; j < d; j++) {
                double x = vs[j] - step * (gs[j] + beta * (vs[j] - ws[j]));
                vs[j] = x;
                double diff = x - ws[j];
                dist2 += diff * diff;
            }
            if (dist2 > radius * radius) {
                double s = radius / Math.sqrt(dist2);
                for (int j = 0; j < d; j++) {
                    vs[j] = ws[j] + s * (vs[j] - ws[j]);
                }
            }
        }
        Vectors.scale(1.0 / weightSum, vBar);
    }

    /** ĝ = β(w − v̄), clipped to norm L. Modified: out. Not modified: w. */
    @Override
    public void gradient(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj out) {
        solve(w, data, i);
        double[] o = out.data;
        for (int j = 0; j < v.numRows; j++) {
            o[j] = beta * (w.data[j] - vBar.data[j]);
        }
        Vectors.clipL2(out, lipschitz);
    }

    @Override
    public double normBound() {
        return lipschitz;
    }

    /** τ loss-gradient evaluations per call. */
    @Override
    public int costPerCall() {
        return innerSteps;
    }

    @Override
    public String toString() {
        return "MoreauEnvelopeOracle(loss=" + loss.name() + ", L=" + lipschitz + ", beta=" + beta + ", accuracy="
                + accuracy + ", innerSteps=" + innerSteps + ")";
    }
}
