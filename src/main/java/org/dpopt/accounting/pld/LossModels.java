package org.dpopt.accounting.pld;

/** Closed-form privacy-loss tails of the Gaussian, Laplace and Poisson-subsampled Gaussian pairs. */
final class LossModels {
    private LossModels() {
    }

    /**
     * Gaussian pair P = N(1, z²), Q = N(0, z²) (sensitivity 1, noise multiplier z). The loss is
     * L(x) = (2x − 1)/(2z²), so L ~ N(μ, s²) under P and N(−μ, s²) under Q with μ = 1/(2z²),
     * s = 1/z. The reversed pair has the same loss law, so both directions coincide.
     */
    static LossModel gaussian(double z) {
        return new GaussianLoss(1 / (2 * z * z), 1 / z);
    }

    /** L ~ N(μ, s²) under P, N(−μ, s²) under Q; unbounded support. */
    private record GaussianLoss(double center, double scale) implements LossModel {
        @Override
        public double upperP(double l) {
            return NormalTail.upper((l - center) / scale);
        }

        @Override
        public double lowerP(double l) {
            return NormalTail.lower((l - center) / scale);
        }

        @Override
        public double upperQ(double l) {
            return NormalTail.upper((l + center) / scale);
        }

        @Override
        public double lowerQ(double l) {
            return NormalTail.lower((l + center) / scale);
        }
    }

    /**
     * Laplace pair P = Lap(1, b), Q = Lap(0, b) (ℓ1-sensitivity 1, scale b). The loss
     * (|x| − |x − 1|)/b is −1/b for x ≤ 0, (2x − 1)/b on (0, 1) and 1/b for x ≥ 1, so under P:
     * an atom e^{−1/b}/2 at −1/b, density on (−1/b, 1/b), an atom 1/2 at 1/b; for −1/b ≤ l &lt; 1/b,
     * P(L ≤ l) = ½·exp((l − 1/b)/2) and Q(L &gt; l) = ½·exp(−(l + 1/b)/2). Symmetric in direction.
     */
    static LossModel laplace(double b) {
        return new LaplaceLoss(1 / b);
    }

    /** The Laplace pair's loss on [−r, r], r = 1/b, with its two atoms at ±r. */
    private record LaplaceLoss(double r) implements LossModel {
        @Override
        public double upperP(double l) {
            if (l < -r) {
                return 1;
            }
            return l >= r ? 0 : 0.5 - 0.5 * Math.expm1((l - r) / 2);
        }

        @Override
        public double lowerP(double l) {
            if (l < -r) {
                return 0;
            }
            return l >= r ? 1 : 0.5 * Math.exp((l - r) / 2);
        }

        @Override
        public double upperQ(double l) {
            if (l < -r) {
                return 1;
            }
            return l >= r ? 0 : 0.5 * Math.exp(-(l + r) / 2);
        }

        @Override
        public double lowerQ(double l) {
            if (l < -r) {
                return 0;
            }
            return l >= r ? 1 : 0.5 - 0.5 * Math.expm1(-(l + r) / 2);
        }

        @Override
        public double center() {
            return 0;
        }

        @Override
        public double supportLow() {
            return -r;
        }

        @Override
        public double supportHigh() {
            return r;
        }

        @Override
        public double scale() {
            return r;
        }
    }

    /**
     * Poisson-subsampled Gaussian, rate q &lt; 1, noise multiplier z, in the remove or add direction
     * (see {@link PoissonGaussianLoss}).
     */
    static LossModel poissonGaussian(double q, double z, boolean remove) {
        return new PoissonGaussianLoss(q, z, remove);
    }
}
