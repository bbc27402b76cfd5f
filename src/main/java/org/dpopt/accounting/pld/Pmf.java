package org.dpopt.accounting.pld;

/**
 * One elementary privacy-loss measure on the grid: probability {@code probs[j]} at loss
 * (offset + j)·h, plus mass {@code inf} at +∞. Immutable; trimmed so that the first and last entries
 * are positive (unless the finite part is empty, which is stored as a single zero).
 *
 * <p>Besides the PMF itself it evaluates the moment generating function M(θ) = Σ_j p_j e^{θ l_j}
 * of its finite part. All terms are positive, so M can be computed to a known relative accuracy:
 * Horner's rule in r = e^{−|θ|h}, started at the end whose term dominates (no overflow, one multiply-add
 * per point). {@link #logMgf(double, double, int)} returns log M rounded in the requested direction:
 * every Horner step has relative error at most 2u (u = 2⁻⁵³) and r itself at most u, so after n steps
 * the relative error is at most (3n + 4)u (first order, n·u ≪ 1); terms that underflow lose at most
 * {@link Double#MIN_VALUE} each, which the directed bounds add. When the end term is so small that
 * the Horner sum itself would be near the subnormal range, an exact log-sum-exp is used instead.
 */
final class Pmf {

    /** Unit roundoff of double precision. */
    static final double U = 0x1p-53;

    final long offset;
    final double[] probs;
    final double inf;
    /** Σ probs as computed, and rounded up (upper) and down (lower). */
    final double mass;
    final double massUp;
    final double massDown;
    /** max |log p| over the positive entries (for the tilt's rounding bound). */
    final double maxAbsLogP;

    private Pmf(long offset, double[] probs, double inf) {
        this.offset = offset;
        this.probs = probs;
        this.inf = inf;
        double s = 0;
        double minPos = Double.POSITIVE_INFINITY;
        for (double p : probs) {
            s += p;
            if (p > 0 && p < minPos) {
                minPos = p;
            }
        }
        double slack = (probs.length + 2) * U;
        this.mass = s;
        this.massUp = s * (1 + slack);
        this.massDown = s * (1 - slack);
        this.maxAbsLogP = minPos == Double.POSITIVE_INFINITY ? 0 : Math.max(Math.abs(Math.log(minPos)), 1);
    }

    /** A trimmed PMF; {@code probs} is taken over (not copied), entries must be finite and ≥ 0. */
    static Pmf of(long offset, double[] probs, double inf) {
        int lo = 0;
        while (lo < probs.length - 1 && !(probs[lo] > 0)) {
            lo++;
        }
        int hi = probs.length - 1;
        while (hi > lo && !(probs[hi] > 0)) {
            hi--;
        }
        double[] kept = lo == 0 && hi == probs.length - 1 ? probs : java.util.Arrays.copyOfRange(probs, lo, hi + 1);
        return new Pmf(offset + lo, kept, inf);
    }

    int size() {
        return probs.length;
    }

    /** True if the finite part has no mass. */
    boolean emptyFinite() {
        return probs.length == 1 && !(probs[0] > 0);
    }

    /** Grid index of the last entry. */
    long lastIndex() {
        return offset + probs.length - 1;
    }

    /**
     * log M(θ) of the finite part, rounded up if {@code direction > 0}, down if {@code < 0}, plain if 0;
     * −∞ for an empty finite part.
     */
    double logMgf(double theta, double h, int direction) {
        if (emptyFinite()) {
            return Double.NEGATIVE_INFINITY;
        }
        int n = probs.length;
        double logM;
        if (theta == 0) {
            logM = Math.log(direction > 0 ? massUp : direction < 0 ? massDown : mass);
            return logM;
        }
        double r = Math.exp(-Math.abs(theta) * h);
        double acc = 0;
        if (theta > 0) {
            for (int k = 0; k < n; k++) {
                acc = acc * r + probs[k];
            }
            logM = theta * (lastIndex() * h);
        } else {
            for (int k = n - 1; k >= 0; k--) {
                acc = acc * r + probs[k];
            }
            logM = theta * (offset * h);
        }
        if (!(acc > 1e-280)) {
            // the dominant term is not at the end Horner starts from: exact log-sum-exp instead
            return logMgfLogSumExp(theta, h, direction);
        }
        double rel = (3.0 * n + 4) * U + n * Double.MIN_VALUE / acc; // rounding, and terms that underflowed
        double round = 2 * U * (Math.abs(logM) + Math.abs(Math.log(acc)) + 1);
        if (direction > 0) {
            return logM + Math.log(acc * (1 + rel)) + round;
        }
        if (direction < 0) {
            return logM + Math.log(acc * (1 - rel)) - round;
        }
        return logM + Math.log(acc);
    }

    /** log Σ p_j e^{θ l_j} by log-sum-exp (one log and one exp per point), rounded as asked. */
    private double logMgfLogSumExp(double theta, double h, int direction) {
        int n = probs.length;
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < n; k++) {
            if (probs[k] > 0) {
                max = Math.max(max, Math.log(probs[k]) + theta * ((offset + k) * h));
            }
        }
        double s = 0;
        double worst = 0;
        for (int k = 0; k < n; k++) {
            if (probs[k] > 0) {
                double e = Math.log(probs[k]) + theta * ((offset + k) * h);
                s += Math.exp(e - max);
                worst = Math.max(worst, Math.abs(e) + Math.abs(max));
            }
        }
        double v = max + Math.log(s);
        double err = U * ((3.0 * n + 6) + 4 * worst + Math.abs(v));
        return direction > 0 ? v + err : direction < 0 ? v - err : v;
    }

    /**
     * Mean and variance of the θ-tilted law p_j e^{θ l_j}/M(θ) (= first and second derivatives of
     * log M), by Horner's rule with the derivative recurrences D_m = r(D_{m−1} + A_{m−1}),
     * E_m = r(E_{m−1} + 2D_{m−1} + A_{m−1}); plain rounding (used only to choose tilts and windows).
     */
    double[] tiltedMoments(double theta, double h) {
        if (emptyFinite()) {
            return new double[] {offset * h, 0};
        }
        int n = probs.length;
        double r = Math.exp(-Math.abs(theta) * h);
        double a = 0;
        double d = 0;
        double e = 0;
        if (theta >= 0) {
            for (int k = 0; k < n; k++) {
                e = r * (e + 2 * d + a);
                d = r * (d + a);
                a = a * r + probs[k];
            }
            double m = d / a;
            return new double[] {(lastIndex() - m) * h, Math.max(0, e / a - m * m) * h * h};
        }
        for (int k = n - 1; k >= 0; k--) {
            e = r * (e + 2 * d + a);
            d = r * (d + a);
            a = a * r + probs[k];
        }
        double m = d / a;
        return new double[] {(offset + m) * h, Math.max(0, e / a - m * m) * h * h};
    }

    /**
     * The mean of the θ-tilted law p_j e^{θ l_j}/M(θ) (= d log M/dθ), by Horner's rule with the
     * derivative recurrence D_m = r(D_{m−1} + A_{m−1}); plain rounding (used only to choose tilts).
     */
    double tiltedMean(double theta, double h) {
        if (emptyFinite()) {
            return offset * h;
        }
        int n = probs.length;
        if (theta == 0) {
            double s = 0;
            double m = 0;
            for (int k = 0; k < n; k++) {
                s += probs[k];
                m += probs[k] * k;
            }
            return (offset + m / s) * h;
        }
        double r = Math.exp(-Math.abs(theta) * h);
        double a = 0;
        double d = 0;
        if (theta > 0) {
            for (int k = 0; k < n; k++) {
                d = r * (d + a);
                a = a * r + probs[k];
            }
            return (lastIndex() - d / a) * h;
        }
        for (int k = n - 1; k >= 0; k--) {
            d = r * (d + a);
            a = a * r + probs[k];
        }
        return (offset + d / a) * h;
    }
}
