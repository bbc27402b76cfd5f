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
        final double mu = 1 / (2 * z * z);
        final double s = 1 / z;
        return new LossModel() {
            @Override
            public double upperP(double l) {
                return NormalTail.upper((l - mu) / s);
            }

            @Override
            public double lowerP(double l) {
                return NormalTail.lower((l - mu) / s);
            }

            @Override
            public double upperQ(double l) {
                return NormalTail.upper((l + mu) / s);
            }

            @Override
            public double lowerQ(double l) {
                return NormalTail.lower((l + mu) / s);
            }

            @Override
            public double center() {
                return mu;
            }

            @Override
            public double supportLow() {
                return Double.NEGATIVE_INFINITY;
            }

            @Override
            public double supportHigh() {
                return Double.POSITIVE_INFINITY;
            }

            @Override
            public double scale() {
                return s;
            }
        };
    }

    /**
     * Laplace pair P = Lap(1, b), Q = Lap(0, b) (ℓ1-sensitivity 1, scale b). The loss
     * (|x| − |x − 1|)/b is −1/b for x ≤ 0, (2x − 1)/b on (0, 1) and 1/b for x ≥ 1, so under P:
     * an atom e^{−1/b}/2 at −1/b, density on (−1/b, 1/b), an atom 1/2 at 1/b; for −1/b ≤ l &lt; 1/b,
     * P(L ≤ l) = ½·exp((l − 1/b)/2) and Q(L &gt; l) = ½·exp(−(l + 1/b)/2). Symmetric in direction.
     */
    static LossModel laplace(double b) {
        final double r = 1 / b;
        return new LossModel() {
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
        };
    }

    /**
     * Poisson-subsampled Gaussian, rate q &lt; 1, noise multiplier z. Remove direction:
     * P = (1−q)N(0,z²) + qN(1,z²), Q = N(0,z²), loss L(x) = ln(1 − q + q·e^{(2x−1)/(2z²)}), increasing in
     * x with inverse x(l) = z²·ln((e^l − (1−q))/q) + 1/2 for l &gt; ln(1−q). Add direction: the reversed
     * pair, whose loss is −L(x) with X ~ N(0, z²) under P′ and the mixture under Q′.
     */
    static LossModel poissonGaussian(double q, double z, boolean remove) {
        final double log1mq = Math.log1p(-q);
        final double logq = Math.log(q);
        final double z2 = z * z;
        return new LossModel() {
            /** x(l) for l > ln(1−q); −∞ at or below. */
            double inverse(double l) {
                double u = l - log1mq;
                if (!(u > 0)) {
                    return Double.NEGATIVE_INFINITY;
                }
                // ln(e^l − (1−q)) = ln(1−q) + ln(expm1(u)); for large u use l + ln(1 − (1−q)e^{−l})
                double logDiff = u < 700 ? log1mq + Math.log(Math.expm1(u)) : l + Math.log1p(-Math.exp(log1mq - l));
                return z2 * (logDiff - logq) + 0.5;
            }

            // mixture M = (1−q)N(0,z²) + qN(1,z²) and base N = N(0,z²), tails at a point x
            double mixUpper(double x) {
                return (1 - q) * NormalTail.upper(x / z) + q * NormalTail.upper((x - 1) / z);
            }

            double mixLower(double x) {
                return (1 - q) * NormalTail.lower(x / z) + q * NormalTail.lower((x - 1) / z);
            }

            @Override
            public double upperP(double l) {
                if (remove) {
                    return mixUpper(inverse(l)); // L > l ⇔ X > x(l)
                }
                return NormalTail.lower(inverse(-l) / z); // −L(X) > l ⇔ X < x(−l)
            }

            @Override
            public double lowerP(double l) {
                if (remove) {
                    return mixLower(inverse(l));
                }
                return NormalTail.upper(inverse(-l) / z);
            }

            @Override
            public double upperQ(double l) {
                if (remove) {
                    return NormalTail.upper(inverse(l) / z);
                }
                return mixLower(inverse(-l));
            }

            @Override
            public double lowerQ(double l) {
                if (remove) {
                    return NormalTail.lower(inverse(l) / z);
                }
                return mixUpper(inverse(-l));
            }

            @Override
            public void tails(double l, boolean upP, boolean upQ, double[] out) {
                double x = inverse(remove ? l : -l);
                if (remove) {
                    out[0] = upP ? mixUpper(x) : mixLower(x);
                    out[1] = upQ ? NormalTail.upper(x / z) : NormalTail.lower(x / z);
                } else {
                    out[0] = upP ? NormalTail.lower(x / z) : NormalTail.upper(x / z);
                    out[1] = upQ ? mixLower(x) : mixUpper(x);
                }
            }

            @Override
            public double center() {
                double m = 0.5 * (q / z) * (q / z); // q²/(2z²) without underflowing q² or z²
                return remove ? m : -m;
            }

            @Override
            public double supportLow() {
                return remove ? log1mq : Double.NEGATIVE_INFINITY;
            }

            @Override
            public double supportHigh() {
                return remove ? Double.POSITIVE_INFINITY : -log1mq;
            }

            @Override
            public double scale() {
                return Math.max(q / z, 1e-6);
            }
        };
    }
}
