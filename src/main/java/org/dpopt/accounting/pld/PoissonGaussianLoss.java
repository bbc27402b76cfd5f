package org.dpopt.accounting.pld;

/**
 * The privacy loss of one Poisson-subsampled Gaussian step, rate q &lt; 1, noise multiplier z, unit
 * sensitivity. Remove direction: P = (1−q)N(0,z²) + qN(1,z²), Q = N(0,z²), loss
 * L(x) = ln(1 − q + q·e^{(2x−1)/(2z²)}), increasing in x with inverse x(l) = z²·ln((e^l − (1−q))/q) + 1/2
 * for l &gt; ln(1−q). Add direction: the reversed pair, whose loss is −L(x) with X ~ N(0, z²) under P′ and
 * the mixture under Q′. Both pairs dominate the subsampled Gaussian mechanism in their direction (Zhu,
 * Dong and Wang, "Optimal Accounting of Differential Privacy via Characteristic Function", AISTATS
 * 2022); every tail is a closed form in the normal tails of {@link NormalTail}.
 */
final class PoissonGaussianLoss implements LossModel {

    private final double q;
    private final double z;
    private final boolean remove;
    private final double log1mq;
    private final double logq;
    private final double z2;

    PoissonGaussianLoss(double q, double z, boolean remove) {
        this.q = q;
        this.z = z;
        this.remove = remove;
        this.log1mq = Math.log1p(-q);
        this.logq = Math.log(q);
        this.z2 = z * z;
    }

    /** x(l) for l > ln(1−q); −∞ at or below. */
    private double inverse(double l) {
        double u = l - log1mq;
        if (!(u > 0)) {
            return Double.NEGATIVE_INFINITY;
        }
        // ln(e^l − (1−q)) = ln(1−q) + ln(expm1(u)); for large u use l + ln(1 − (1−q)e^{−l})
        double logDiff = u < 700 ? log1mq + Math.log(Math.expm1(u)) : l + Math.log1p(-Math.exp(log1mq - l));
        return z2 * (logDiff - logq) + 0.5;
    }

    // mixture M = (1−q)N(0,z²) + qN(1,z²) and base N = N(0,z²), tails at a point x
    private double mixUpper(double x) {
        return (1 - q) * NormalTail.upper(x / z) + q * NormalTail.upper((x - 1) / z);
    }

    private double mixLower(double x) {
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
}
