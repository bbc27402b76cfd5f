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
 * (with the prox over W it is only 2L-Lipschitz; {@code theory-notes/moreau-smoothing.md §3}), which is
 * what the clip to L keeps exactly. Reference: Bassily, Feldman, Talwar, Thakurta, "Private Stochastic
 * Convex Optimization with Optimal Rates", NeurIPS 2019, arXiv:1908.09970, §4 (A_ProxGD).
 *
 * <p>As a {@link Loss} this is f_β itself: value f (an upper bound on f_β within L²/(2β)), gradient
 * ∇f_β as above, L-Lipschitz, β-smooth, convex. <b>Immutable and thread-safe</b>: {@link #gradient} and
 * {@link #proxPoint} allocate their two work vectors per call; a run gets allocation-free gradients,
 * and their cost count, from its own {@link #newOracle}.
 */
public final class MoreauEnvelopeOracle implements GradientOracle, SmoothedLoss {
    private final Loss loss;
    private final double lipschitz;
    private final double beta;
    private final double accuracy;
    private final int innerSteps;
    private final int dimension;

    private MoreauEnvelopeOracle(Loss loss, double lipschitz, double beta, double accuracy, int d) {
        this.loss = loss;
        this.lipschitz = lipschitz;
        this.beta = beta;
        this.accuracy = accuracy;
        this.innerSteps = certifiedInnerSteps(lipschitz, accuracy);
        this.dimension = d;
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
        Checks.positive("beta", beta);
        Checks.positive("accuracy", accuracy);
        Checks.atLeastOne("dimension", dimension);
        if (loss.convexity() != Loss.Convexity.CONVEX) {
            throw Checks.fail("convexity of " + loss.name(), "CONVEX for the Moreau envelope oracle", loss.convexity());
        }
        return new MoreauEnvelopeOracle(loss, lipschitz, beta, accuracy, dimension);
    }

    /** τ for (L, α) as an int, refusing an accuracy that would need more inner steps than an int holds. */
    private static int certifiedInnerSteps(double lipschitz, double accuracy) {
        long tau = innerStepsFor(lipschitz, accuracy);
        if (tau > Integer.MAX_VALUE) {
            throw Checks.fail("inner steps 16L^2/alpha^2", "at most " + Integer.MAX_VALUE + " (raise the accuracy)", tau);
        }
        return (int) tau;
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

    /** The loss f being smoothed. */
    @Override
    public Loss base() {
        return loss;
    }

    /**
     * The approximate prox point v̄ of w for row i, written into out. Modified: out. Not modified: w.
     */
    public void proxPoint(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj out) {
        Checks.vector("w", w, dimension);
        Checks.vector("out", out, dimension);
        Run run = new Run();
        solve(w, data, i, run.v, run.vBar, run.g);
        Vectors.copy(run.vBar, out);
    }

    /**
     * The inner solve: v̄ ← the k-weighted average of projected subgradient descent on h from v_1 = w.
     * Modified: v, vBar, g (work vectors). Not modified: w.
     */
    private void solve(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj v, DMatrixRMaj vBar, DMatrixRMaj g) {
        double radius = lipschitz / beta;
        Vectors.copy(w, v);
        Vectors.zero(vBar);
        double weightSum = 0;
        double[] vs = v.data;
        double[] ws = w.data;
        double[] gs = g.data;
        int d = dimension;
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

    /** ĝ = β(w − v̄) clipped to norm L, from v̄ (overwritten by ĝ when it is out itself). */
    private void envelopeGradient(DMatrixRMaj w, DMatrixRMaj vBar, DMatrixRMaj out) {
        double[] o = out.data;
        for (int j = 0; j < dimension; j++) {
            o[j] = beta * (w.data[j] - vBar.data[j]);
        }
        Vectors.clipL2(out, lipschitz);
    }

    /** ĝ = β(w − v̄), clipped to norm L. Modified: out. Not modified: w. Allocates its work vectors. */
    @Override
    public void gradient(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj out) {
        new Run().gradient(w, data, i, out);
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

    /** "f-moreau". */
    @Override
    public String name() {
        return loss.name() + "-moreau";
    }

    /** f itself (an upper bound on f_β within L²/(2β); reported values refer to the unsmoothed loss). */
    @Override
    public double value(DMatrixRMaj w, Dataset data, int i) {
        return loss.value(w, data, i);
    }

    /** L, whatever the row-norm bound (it was fixed when the envelope was made). */
    @Override
    public double lipschitz(double rowNormBound) {
        return lipschitz;
    }

    /** β (in w). */
    @Override
    public double smoothness(double rowNormBound) {
        return beta;
    }

    /** A run's oracle: the same gradients, with its own work vectors and a count of inner steps. */
    @Override
    public SmoothedOracle newOracle(int d, double rowNormBound) {
        if (d != dimension) {
            throw Checks.fail("dimension", "the envelope's " + dimension, d);
        }
        return new Run();
    }

    /** One run's oracle: preallocated work vectors, τ loss gradients counted per call (cost τ per call). */
    private final class Run implements SmoothedOracle {
        private final DMatrixRMaj v = new DMatrixRMaj(dimension, 1);
        private final DMatrixRMaj vBar = new DMatrixRMaj(dimension, 1);
        private final DMatrixRMaj g = new DMatrixRMaj(dimension, 1);
        private long evaluations;

        @Override
        public void gradient(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj out) {
            solve(w, data, i, v, vBar, g);
            evaluations += innerSteps;
            envelopeGradient(w, vBar, out);
        }

        @Override
        public double normBound() {
            return MoreauEnvelopeOracle.this.normBound();
        }

        @Override
        public int costPerCall() {
            return innerSteps;
        }

        @Override
        public long baseEvaluations() {
            return evaluations;
        }
    }

    @Override
    public String toString() {
        return "MoreauEnvelopeOracle(loss=" + loss.name() + ", L=" + lipschitz + ", beta=" + beta + ", accuracy="
                + accuracy + ", innerSteps=" + innerSteps + ")";
    }
}
