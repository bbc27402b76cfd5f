package org.dpopt.oracle;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.ejml.data.DMatrixRMaj;

/**
 * The Moreau envelope of a convex generalized linear loss, with its derivative computed by a
 * bisection on the one-dimensional prox problem. The smoothed loss is again a GLL, so every GLL kernel
 * (and every optimizer) can use it unchanged.
 *
 * <pre>
 *   φ_β(u, y) = min_v  φ(v, y) + (β/2)(u − v)²,      φ_β′(u, y) = β (u − prox(u)),
 *   prox(u) ∈ [u − L₀/β, u + L₀/β]          (because β(u − prox(u)) ∈ ∂φ(prox(u)) ⊂ [−L₀, L₀]).
 * </pre>
 *
 * Bisection on the β-strongly convex ψ(v) = φ(v) + (β/2)(v − u)²: a subgradient s = φ′(mid) + β(mid − u)
 * with s &gt; 0 puts the minimizer left of mid, s &lt; 0 right of it. After K = ⌈log₂(2L₀/α)⌉ halvings the
 * midpoint is within L₀/(β2^K) of prox(u), so the derivative is within L₀/2^K ≤ α/2 of φ_β′ (and the
 * gradient within (α/2)·‖x‖ of ∇f_β). Exact early exit (proved in {@code theory-notes/moreau-smoothing.md
 * §2}): when the subgradients at both bracket ends are equal, φ is affine on the bracket and the
 * minimizer is clamp(u − g/β, lo, hi). The derivative is finally clamped to [−L₀, L₀], so the per-example
 * gradient norm never exceeds L₀·R whatever the floating-point error — the sensitivity bound rests on it.
 *
 * <p>Cost: at most K + 2 scalar subgradient calls and one inner product per gradient.
 *
 * <p>Reference: Bassily, Guzmán, Menart, "Differentially Private Stochastic Optimization: New Results
 * in Convex and Non-Convex Settings", NeurIPS 2021, arXiv:2107.05585, Algorithm 1 and Lemmas 4–5 (the
 * bracket and the iteration count are derived in {@code theory-notes/moreau-smoothing.md §2}).
 * Assumptions: φ(·, y) convex and L₀-Lipschitz (its {@code derivative} returns a true subgradient).
 * The smoothed loss is convex, L₀R-Lipschitz, βR²-smooth (rows ‖x‖ ≤ R) and satisfies
 * φ_β ≤ φ ≤ φ_β + L₀²/(2β).
 *
 * <p>Immutable and thread-safe. A run that wants the cost of its calls uses its own {@link #oracle}.
 */
public class GllBisectionProx implements GeneralizedLinearLoss, SmoothedLoss {
    private final GeneralizedLinearLoss base;
    private final double beta;
    private final double accuracy;
    private final double l0;
    private final int halvings;

    private GllBisectionProx(GeneralizedLinearLoss base, double beta, double accuracy) {
        this.base = base;
        this.beta = beta;
        this.accuracy = accuracy;
        this.l0 = base.scalarLipschitz();
        this.halvings = halvings(l0, accuracy);
    }

    /**
     * The β-envelope of a convex GLL with derivative accuracy α.
     *
     * @param base the convex loss φ with finite scalar Lipschitz constant L₀
     * @param beta the smoothing parameter β &gt; 0 (scalar: the smoothed φ is β-smooth in u)
     * @param accuracy α &gt; 0; the returned derivative is within α/2 of φ_β′
     */
    public static GllBisectionProx of(GeneralizedLinearLoss base, double beta, double accuracy) {
        Checks.notNull("base", base);
        Checks.positive("beta", beta);
        Checks.positive("accuracy", accuracy);
        if (base.convexity() != Convexity.CONVEX) {
            throw Checks.fail("convexity of " + base.name(), "CONVEX for the bisection prox", base.convexity());
        }
        double l0 = base.scalarLipschitz();
        if (!(l0 > 0) || Double.isInfinite(l0)) {
            throw Checks.fail("scalar Lipschitz constant of " + base.name(), "finite and positive", l0);
        }
        if (base instanceof GllBisectionProx) {
            throw Checks.fail("base", "not already smoothed", base.name());
        }
        return new GllBisectionProx(base, beta, accuracy);
    }

    /** K = ⌈log₂(2L₀/α)⌉ (at least 0). */
    public static int halvings(double l0, double accuracy) {
        Checks.positive("l0", l0);
        Checks.positive("accuracy", accuracy);
        return Math.max(0, (int) Math.ceil(Math.log(2 * l0 / accuracy) / Math.log(2) - 1e-12));
    }

    /** The unsmoothed loss φ. */
    @Override
    public GeneralizedLinearLoss base() {
        return base;
    }

    /** β. */
    public double beta() {
        return beta;
    }

    /** α as requested. */
    public double accuracy() {
        return accuracy;
    }

    /** K, the number of halvings. */
    public int halvings() {
        return halvings;
    }

    /** The guaranteed bound on |derivative − φ_β′|: L₀/2^K (≤ α/2). */
    public double derivativeErrorBound() {
        return l0 / Math.pow(2, halvings);
    }

    /** Worst-case scalar subgradient calls per derivative: K + 2. */
    public int maxSubgradientCalls() {
        return halvings + 2;
    }

    /**
     * The approximate prox point v̂ of u, with |v̂ − prox(u)| ≤ L₀/(β2^K).
     */
    public double proxPoint(double u, double y) {
        return bisect(u, y, null);
    }

    private double bisect(double u, double y, Oracle counter) {
        double r = l0 / beta;
        double lo = u - r;
        double hi = u + r;
        double gLo = base.derivative(lo, y);
        double gHi = base.derivative(hi, y);
        int used = 2;
        double result = Double.NaN;
        for (int k = 0; k < halvings; k++) {
            if (gLo == gHi) {
                // φ is affine with slope gLo on [lo, hi]; the minimizer of ψ is exact
                result = Math.max(lo, Math.min(hi, u - gLo / beta));
                break;
            }
            double mid = 0.5 * (lo + hi);
            double g = base.derivative(mid, y);
            used++;
            double s = g + beta * (mid - u);
            if (s > 0) {
                hi = mid;
                gHi = g;
            } else if (s < 0) {
                lo = mid;
                gLo = g;
            } else {
                result = mid;
                break;
            }
        }
        if (Double.isNaN(result)) {
            result = gLo == gHi ? Math.max(lo, Math.min(hi, u - gLo / beta)) : 0.5 * (lo + hi);
        }
        if (counter != null) {
            counter.calls += used;
        }
        if (!Double.isFinite(result)) {
            throw new IllegalStateException("prox of " + base.name() + " at u=" + u + ", y=" + y
                    + " is not finite: bracket [" + lo + ", " + hi + "]");
        }
        return result;
    }

    private double clampedDerivative(double u, double v) {
        double c = beta * (u - v);
        return Math.max(-l0, Math.min(l0, c));
    }

    @Override
    public String name() {
        return base.name() + "-moreau";
    }

    /**
     * φ(v̂) + (β/2)(u − v̂)² at the approximate prox point: an upper bound on φ_β(u) within
     * 2L₀·L₀/(β2^K) of it.
     */
    @Override
    public double phi(double u, double y) {
        double v = bisect(u, y, null);
        double diff = u - v;
        return base.phi(v, y) + 0.5 * beta * diff * diff;
    }

    @Override
    public double derivative(double u, double y) {
        return clampedDerivative(u, bisect(u, y, null));
    }

    /**
     * β·φ″(v̂)/(β + φ″(v̂)) at the approximate prox point: the envelope's second derivative where φ is
     * twice differentiable at the prox point (0 on linear pieces). Not reliable where the prox point sits
     * on a kink of φ, hence {@link #isTwiceDifferentiable()} is false.
     */
    @Override
    public double secondDerivative(double u, double y) {
        double h = base.secondDerivative(bisect(u, y, null), y);
        return h > 0 ? beta * h / (beta + h) : 0;
    }

    @Override
    public double scalarLipschitz() {
        return l0;
    }

    /** β, or the smaller β·β₀/(β + β₀) when φ itself is β₀-smooth. */
    @Override
    public double scalarSmoothness() {
        double b0 = base.scalarSmoothness();
        return Double.isFinite(b0) ? beta * b0 / (beta + b0) : beta;
    }

    @Override
    public boolean isTwiceDifferentiable() {
        return false;
    }

    /**
     * The oracle of one run over this smoothed loss for rows with ‖x‖ ≤ rowNormBound: norm bound L₀R,
     * at most K + 2 scalar calls per gradient, counted. Its clip-and-sum kernel is the GLL kernel of
     * {@link ExactGradientOracle} (the same arithmetic as on any other GLL).
     */
    public Oracle oracle(double rowNormBound) {
        Checks.positive("rowNormBound", rowNormBound);
        return new Oracle(this, rowNormBound);
    }

    /** The same oracle (d is not needed: the prox is one-dimensional). */
    @Override
    public SmoothedOracle newOracle(int dimension, double rowNormBound) {
        Checks.atLeastOne("dimension", dimension);
        return oracle(rowNormBound);
    }

    /**
     * The prox, its derivative and the per-example gradient of one run, with their own count of
     * scalar subgradient calls. Not thread-safe: one per run.
     */
    public static final class Oracle implements SmoothedOracle {
        private final GllBisectionProx prox;
        private final ExactGradientOracle kernel;
        private long calls;

        private Oracle(GllBisectionProx prox, double rowNormBound) {
            this.prox = prox;
            this.kernel = new ExactGradientOracle(new Counting(prox, this), prox.l0 * rowNormBound);
        }

        /** The approximate prox point of u (see {@link GllBisectionProx#proxPoint}), counted. */
        public double proxPoint(double u, double y) {
            return prox.bisect(u, y, this);
        }

        /** φ_β′(u, y) to accuracy α/2, clamped to [−L₀, L₀], counted. */
        public double derivative(double u, double y) {
            return prox.clampedDerivative(u, prox.bisect(u, y, this));
        }

        /** Scalar subgradient calls made so far (non-private: they depend on the data). */
        public long subgradientCalls() {
            return calls;
        }

        @Override
        public long baseEvaluations() {
            return calls;
        }

        /** φ_β′(⟨w, x_i⟩, y_i)·x_i, guarded to norm L₀R. Modified: out. */
        @Override
        public void gradient(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj out) {
            kernel.gradient(w, data, i, out);
        }

        @Override
        public double normBound() {
            return kernel.normBound();
        }

        @Override
        public int costPerCall() {
            return prox.maxSubgradientCalls();
        }

        /**
         * The GLL clip-and-sum kernel with g = φ_β′: ‖∇‖ = |g|·‖x_i‖, one multiply to clip. For a
         * one-element range out may be w itself (the derivative is read before out is written).
         */
        @Override
        public int addClippedBatch(DMatrixRMaj w, Dataset data, int[] idx, int from, int to, double[] weights,
                double clip, DMatrixRMaj out, DMatrixRMaj scratch) {
            return kernel.addClippedBatch(w, data, idx, from, to, weights, clip, out, scratch);
        }
    }

    /** The prox seen as a GLL whose derivative counts into its run's oracle (private to that oracle). */
    private static final class Counting extends GllBisectionProx {
        private final Oracle counter;

        Counting(GllBisectionProx prox, Oracle counter) {
            super(prox.base, prox.beta, prox.accuracy);
            this.counter = counter;
        }

        @Override
        public double derivative(double u, double y) {
            GllBisectionProx prox = this;
            return prox.clampedDerivative(u, prox.bisect(u, y, counter));
        }
    }

    @Override
    public String toString() {
        return "GllBisectionProx(base=" + base.name() + ", beta=" + beta + ", accuracy=" + accuracy + ", K="
                + halvings + ")";
    }
}
