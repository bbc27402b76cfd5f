package org.dpopt.accounting;

/**
 * Rényi DP of the Poisson-subsampled Gaussian mechanism (rate q, noise multiplier z, unit sensitivity,
 * add/remove-one, remove direction, which dominates the add direction): ε(α) = log A_α/(α − 1) with
 * <pre>   A_α = E_{Z∼N(0,z²)}[(1 − q + q·e^{(2Z−1)/(2z²)})^α]   </pre>
 * (Mironov, Talwar and Zhang, "Rényi Differential Privacy of the Sampled Gaussian Mechanism",
 * arXiv:1908.10530, 2019). At integer α, A_α is the exact binomial sum Σ_k C(α,k)(1−q)^{α−k} q^k
 * e^{(k²−k)/(2z²)}; at fractional α it is computed by a trapezoidal rule with a proven error far below
 * the other roundings ({@link #logAFractional}), or bounded by the next integer order where that rule
 * would need too many nodes.
 */
final class SampledGaussianRdp {
    private SampledGaussianRdp() {
    }

    /**
     * RDP ε(α) of one step of the Poisson-subsampled Gaussian (rate q, noise multiplier z, unit
     * sensitivity, remove direction, which dominates the add direction; MTZ19).
     */
    static double of(double q, double z, double alpha) {
        if (q == 1.0) {
            return alpha / (2 * z * z);
        }
        if (alpha == Math.rint(alpha) || !Quadrature.feasible(z, alpha)) {
            return integerOrderBound(q, z, alpha);
        }
        return Math.max(0, logAFractional(q, z, alpha) / (alpha - 1));
    }

    /**
     * The exact RDP at an integer order, or at a fractional order α the exact RDP at ⌈α⌉ — an upper
     * bound, since the Rényi divergence is non-decreasing in its order (van Erven and Harremoës,
     * "Rényi divergence and Kullback–Leibler divergence", IEEE Trans. Inf. Theory 2014, Thm. 3). Used
     * where the quadrature grid for a fractional order would be too fine (tiny noise multipliers).
     */
    static double integerOrderBound(double q, double z, double alpha) {
        long a = (long) Math.ceil(alpha);
        double logA = logAInteger(q, z, a);
        return logA == Double.POSITIVE_INFINITY ? Double.POSITIVE_INFINITY : Math.max(0, logA / (a - 1));
    }

    /**
     * The per-step RDP curve of the Poisson-subsampled Gaussian on a whole order grid: integer orders by
     * the exact binomial sum, fractional orders by one shared quadrature grid (see
     * {@link #logAFractional}). Equal to {@link #of} at every order, only faster.
     */
    static double[] curve(double q, double z, double[] alphas) {
        double[] out = new double[alphas.length];
        if (q == 1.0) {
            for (int k = 0; k < alphas.length; k++) {
                out[k] = alphas[k] / (2 * z * z);
            }
            return out;
        }
        double maxFrac = 0;
        for (double a : alphas) {
            if (a != Math.rint(a)) {
                maxFrac = Math.max(maxFrac, a);
            }
        }
        Quadrature quad = maxFrac > 0 && Quadrature.feasible(z, maxFrac) ? new Quadrature(q, z, maxFrac) : null;
        for (int k = 0; k < alphas.length; k++) {
            double a = alphas[k];
            out[k] = a == Math.rint(a) || quad == null ? integerOrderBound(q, z, a) : Math.max(0, quad.logA(a) / (a - 1));
        }
        return out;
    }

    /** log Σ_k C(α,k)(1−q)^{α−k} q^k exp((k²−k)/(2z²)) (log-binomials updated incrementally). */
    static double logAInteger(double q, double z, long alpha) {
        double logQ = Math.log(q);
        double log1mQ = Math.log1p(-q);
        double[] t = new double[(int) alpha + 1];
        double logBinom = 0;
        double max = Double.NEGATIVE_INFINITY;
        for (long k = 0; k <= alpha; k++) {
            if (k > 0) {
                logBinom += logInt(alpha - k + 1) - logInt(k);
            }
            t[(int) k] = logBinom + k * logQ + (alpha - k) * log1mQ + (k * (double) k - k) / (2 * z * z);
            max = Math.max(max, t[(int) k]);
        }
        if (max == Double.POSITIVE_INFINITY || Double.isNaN(max)) {
            return Double.POSITIVE_INFINITY; // exp((k² − k)/(2z²)) overflows even the log scale: no finite bound
        }
        double sum = 0;
        for (double v : t) {
            sum += Math.exp(v - max);
        }
        return max + Math.log(sum);
    }

    private static final double[] LOG_INT = new double[2049];

    static {
        for (int i = 1; i < LOG_INT.length; i++) {
            LOG_INT[i] = Math.log(i);
        }
    }

    private static double logInt(long k) {
        return k < LOG_INT.length ? LOG_INT[(int) k] : Math.log(k);
    }

    /**
     * log E_{Z∼N(0,z²)}[(1 − q + q·e^{(2Z−1)/(2z²)})^α] by the trapezoidal rule in log space on
     * [−16z, α + 16z] with spacing h = min(0.4z², 0.5z). The integrand is a superposition of Gaussian
     * bumps of width z and is analytic in the strip |Im x| &lt; πz² (where 1 − q + q e^{(2x−1)/(2z²)} may
     * vanish), on which |φ| grows by at most e^{d²/(2z²)} at height d. The trapezoidal error is then
     * about e^{d²/(2z²) − 2πd/h} for any admissible d, which with this h is below e^{−38} relative for
     * every z (d = πz² for z ≤ 3.3, d ≈ 2πz²/h beyond). Terms more than e^{−50} below the peak are
     * skipped. Checked against the exact binomial sum at integer orders in tests, to 1e-9.
     */
    static double logAFractional(double q, double z, double alpha) {
        return new Quadrature(q, z, alpha).logA(alpha);
    }

    /** The α-independent part of the quadrature, shared by all orders up to a maximum. */
    private static final class Quadrature {
        private final double[] base;
        private final double[] inner;
        private final double logH;

        /** Most quadrature nodes used; beyond, fractional orders are bounded by the next integer order. */
        static final int MAX_NODES = 2_000_000;

        static boolean feasible(double z, double maxAlpha) {
            double h = Math.min(0.4 * z * z, 0.5 * z);
            double nodes = (maxAlpha + 32 * z) / h;
            return nodes < MAX_NODES;
        }

        Quadrature(double q, double z, double maxAlpha) {
            double h = Math.min(0.4 * z * z, 0.5 * z);
            double lo = -16 * z;
            double hi = maxAlpha + 16 * z;
            int m = (int) Math.ceil((hi - lo) / h);
            double logQ = Math.log(q);
            double log1mQ = Math.log1p(-q);
            double twoZ2 = 2 * z * z;
            double logNorm = -Math.log(z) - 0.5 * Math.log(2 * Math.PI);
            base = new double[m + 1];
            inner = new double[m + 1];
            for (int k = 0; k <= m; k++) {
                double x = lo + k * h;
                inner[k] = logAdd(log1mQ, logQ + (2 * x - 1) / twoZ2);
                base[k] = logNorm - x * x / twoZ2 + (k == 0 || k == m ? Math.log(0.5) : 0);
            }
            logH = Math.log(h);
        }

        double logA(double alpha) {
            double max = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < base.length; k++) {
                max = Math.max(max, base[k] + alpha * inner[k]);
            }
            double sum = 0;
            double cut = max - 50;
            for (int k = 0; k < base.length; k++) {
                double v = base[k] + alpha * inner[k];
                if (v > cut) {
                    sum += Math.exp(v - max);
                }
            }
            return max + Math.log(sum) + logH;
        }
    }

    static double logAdd(double a, double b) {
        if (a == Double.NEGATIVE_INFINITY) {
            return b;
        }
        if (b == Double.NEGATIVE_INFINITY) {
            return a;
        }
        double m = Math.max(a, b);
        return m + Math.log1p(Math.exp(-Math.abs(a - b)));
    }
}
