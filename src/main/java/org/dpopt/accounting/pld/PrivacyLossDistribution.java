package org.dpopt.accounting.pld;

import org.dpopt.linalg.Checks;

/**
 * An immutable discretized privacy-loss distribution (PLD): the law, under P, of the privacy loss
 * L = ln(p(X)/q(X)) of an ordered pair (P, Q), supported on the grid {(offset + k)·h} plus an exactly
 * tracked mass at L = +∞ (outcomes possible under P but not under Q).
 *
 * <p><b>Privacy curve.</b> For every ε the hockey-stick divergence of the pair is
 * <pre>   δ(ε) = Σ_{l &gt; ε} (1 − e^{ε−l})·p(l) + p(∞)   </pre>
 * (Sommer, Meiser, Mohammadi, "Privacy loss classes", PoPETs 2019; Koskela, Jälkö, Honkela, "Computing
 * tight differential privacy guarantees using FFT", AISTATS 2020, arXiv:1906.03049). The PLD of a
 * composition of pairs is the convolution of their PLDs, which is computed by FFT.
 *
 * <p><b>Two modes.</b> A <em>pessimistic</em> PLD's curve is an upper bound on the true curve at
 * every ε: construction rounds losses up (or uses connect-the-dots), and every truncation moves
 * neglected mass up (lower tail → lowest kept loss, upper tail → +∞, i.e. charged to δ). An
 * <em>optimistic</em> PLD's curve is a lower bound: losses are rounded down, the upper tail is moved
 * down to the highest kept loss, the lower tail is dropped, and {@link #excessMass()} bounds the
 * spurious mass that FFT wrap-around may have added (it is subtracted in {@link #delta}). Only PLDs of
 * the same mode and grid compose. See theory-notes/accounting.md for the proofs.
 */
public final class PrivacyLossDistribution {

    /** Largest number of grid points of any PLD or FFT (2^24); larger requests must coarsen h. */
    public static final int MAX_GRID_POINTS = 1 << 24;

    /** Default mass neglected in each tail truncation (as in dp_accounting). */
    public static final double DEFAULT_TAIL_MASS = 1e-15;

    private final double h;
    private final long offset;
    private final double[] probs;
    private final double infinityMass;
    private final boolean pessimistic;
    private final double excessMass;
    private final double tailMass;

    private PrivacyLossDistribution(double h, long offset, double[] probs, double infinityMass,
            boolean pessimistic, double excessMass, double tailMass) {
        this.h = h;
        this.offset = offset;
        this.probs = probs;
        this.infinityMass = infinityMass;
        this.pessimistic = pessimistic;
        this.excessMass = excessMass;
        this.tailMass = tailMass;
    }

    /** A pessimistic PLD from a PMF (copied): probability {@code probs[k]} at loss (offset + k)·h. */
    public static PrivacyLossDistribution fromPmf(double h, long offset, double[] probs, double infinityMass) {
        return fromPmf(h, offset, probs, infinityMass, true);
    }

    /**
     * A PLD from a PMF (copied).
     *
     * @param h grid spacing &gt; 0
     * @param offset grid index of {@code probs[0]}
     * @param probs non-negative finite probabilities, at least one entry
     * @param infinityMass mass at +∞ in [0, 1]
     * @param pessimistic the mode (upper-bound or lower-bound semantics for later truncations)
     */
    public static PrivacyLossDistribution fromPmf(double h, long offset, double[] probs, double infinityMass,
            boolean pessimistic) {
        Checks.positive("h", h);
        Checks.finite("h", h);
        Checks.notNull("probs", probs);
        if (probs.length == 0) {
            throw Checks.fail("probs", "non-empty", "[]");
        }
        if (probs.length > MAX_GRID_POINTS) {
            throw Checks.fail("probs length", "at most " + MAX_GRID_POINTS, probs.length);
        }
        Checks.inRange("infinityMass", infinityMass, 0, 1);
        double total = infinityMass;
        for (double p : probs) {
            if (!(p >= 0) || Double.isInfinite(p)) {
                throw Checks.fail("probability", "finite and non-negative", p);
            }
            total += p;
        }
        if (!(total <= 1 + 1e-9)) {
            throw Checks.fail("total mass", "at most 1", total);
        }
        return new PrivacyLossDistribution(h, offset, probs.clone(), infinityMass, pessimistic, 0,
                DEFAULT_TAIL_MASS);
    }

    /** Internal constructor without copying or validation. */
    static PrivacyLossDistribution of(double h, long offset, double[] probs, double infinityMass,
            boolean pessimistic, double excessMass, double tailMass) {
        return new PrivacyLossDistribution(h, offset, probs, infinityMass, pessimistic, excessMass, tailMass);
    }

    /** Grid spacing h. */
    public double h() {
        return h;
    }

    /** Grid index of the first probability. */
    public long offset() {
        return offset;
    }

    /** Number of grid points. */
    public int size() {
        return probs.length;
    }

    /** The loss (offset + k)·h of grid point k. */
    public double loss(int k) {
        return (offset + k) * h;
    }

    /** Probabilities on the grid (copy). */
    public double[] probabilities() {
        return probs.clone();
    }

    /** Mass at loss +∞. */
    public double infinityMass() {
        return infinityMass;
    }

    /** True for an upper-bound (pessimistic) PLD, false for a lower-bound (optimistic) one. */
    public boolean isPessimistic() {
        return pessimistic;
    }

    /** Upper bound on spurious mass (optimistic mode only; subtracted from δ). */
    public double excessMass() {
        return excessMass;
    }

    /** Tail mass neglected per truncation. */
    public double tailMass() {
        return tailMass;
    }

    /** A copy with another per-truncation tail mass (in (0, 1e-3]). */
    public PrivacyLossDistribution withTailMass(double tail) {
        Checks.inRange("tailMass", tail, Double.MIN_NORMAL, 1e-3);
        return new PrivacyLossDistribution(h, offset, probs, infinityMass, pessimistic, excessMass, tail);
    }

    /** Total finite mass. */
    public double finiteMass() {
        double s = 0;
        for (double p : probs) {
            s += p;
        }
        return s;
    }

    /**
     * δ(ε) = Σ_{l &gt; ε}(1 − e^{ε−l})p(l) + p(∞), clamped to [0, 1]; an upper bound on the true curve for
     * a pessimistic PLD, a lower bound (after subtracting {@link #excessMass()}) for an optimistic one.
     *
     * @param epsilon any ε (negative values are meaningful for hockey-stick divergences), not NaN
     */
    public double delta(double epsilon) {
        if (Double.isNaN(epsilon)) {
            throw Checks.fail("epsilon", "a number", epsilon);
        }
        double d = infinityMass;
        if (epsilon != Double.POSITIVE_INFINITY) {
            // first index with loss > ε
            double pos = epsilon / h - offset;
            int start = pos < 0 ? 0 : (pos >= probs.length ? probs.length : (int) Math.floor(pos) + 1);
            if (start > 0 && loss(start - 1) > epsilon) {
                start--;
            }
            for (int k = start; k < probs.length; k++) {
                double l = loss(k);
                if (l > epsilon) {
                    d += probs[k] * -Math.expm1(epsilon - l);
                }
            }
        }
        if (!pessimistic) {
            d -= excessMass;
        }
        return Math.min(1, Math.max(0, d));
    }

    /**
     * The smallest ε ≥ 0 with {@link #delta}(ε) ≤ δ (exact for this discrete measure): +∞ if the mass
     * at infinity exceeds δ.
     *
     * @param delta δ ∈ (0, 1)
     */
    public double epsilon(double delta) {
        Checks.delta("delta", delta);
        double target = pessimistic ? delta : delta + excessMass;
        if (infinityMass > target) {
            return Double.POSITIVE_INFINITY;
        }
        // Scan down: A = p(∞) + Σ_{j>k} p_j, S = Σ_{j>k} p_j e^{l_k − l_j}; on [l_k, l_{k+1}] δ(ε) = A − e^{ε−l_k} S.
        double a = infinityMass;
        double s = 0;
        double eh = Math.exp(-h);
        for (int k = probs.length - 1; k >= 0; k--) {
            // here a, s refer to j > k relative to l_k
            double dk = a - s; // δ(l_k)
            if (dk > target) {
                double eps = loss(k) + Math.log((a - target) / s);
                return Math.max(0, eps);
            }
            a += probs[k];
            s = eh * (s + probs[k]);
        }
        // below the lowest grid point: δ(ε) = A − e^{ε − l_{−1}} S with l_{−1} = l_0 − h
        if (a > target && s > 0) {
            return Math.max(0, loss(0) - h + Math.log((a - target) / s));
        }
        return 0;
    }

    /**
     * The PLD of the composition with {@code other} (same grid spacing and mode): convolution by FFT,
     * followed by tail truncation.
     */
    public PrivacyLossDistribution compose(PrivacyLossDistribution other) {
        Checks.notNull("other", other);
        if (other.h != h) {
            throw Checks.fail("other PLD grid spacing", "equal to " + h, other.h);
        }
        if (other.pessimistic != pessimistic) {
            throw Checks.fail("other PLD mode", pessimistic ? "pessimistic" : "optimistic",
                    other.pessimistic ? "pessimistic" : "optimistic");
        }
        if ((long) probs.length + other.probs.length - 1 > MAX_GRID_POINTS) {
            throw new PldGridTooLargeException((long) probs.length + other.probs.length - 1);
        }
        double[] conv = Fft.convolve(probs, other.probs);
        double m1 = finiteMass();
        double m2 = other.finiteMass();
        double inf = infinityMass * (m2 + other.infinityMass) + m1 * other.infinityMass;
        double excess = pessimistic ? 0 : excessMass + other.excessMass;
        return truncate(h, offset + other.offset, conv, inf, pessimistic, excess, Math.min(tailMass, other.tailMass));
    }

    /**
     * The PLD of {@code count} adaptive compositions of this pair. One FFT of a window whose
     * length is fixed beforehand by Chernoff bounds on both tails of the sum, a pointwise complex power,
     * and one inverse FFT (exponentiation in the Fourier domain instead of log₂T squarings: the same
     * result with one transform pair). Wrap-around can only add mass inside the window; the mass
     * outside it (≤ tail/2 per side by the Chernoff bounds) is charged to +∞ / the lowest loss in
     * pessimistic mode and counted in {@link #excessMass()} in optimistic mode.
     *
     * @param count T ≥ 1
     * @throws PldGridTooLargeException if the window needs more than {@link #MAX_GRID_POINTS} points
     */
    public PrivacyLossDistribution selfCompose(long count) {
        Checks.atLeastOne("count", count);
        if (count == 1) {
            return this;
        }
        double m = finiteMass();
        double total = m + infinityMass;
        double inf = m > 0 ? Math.exp(count * Math.log(m)) * Math.expm1(count * Math.log1p(infinityMass / m))
                : Math.min(1, total);
        if (m == 0) {
            return new PrivacyLossDistribution(h, offset * count, new double[] {0}, inf, pessimistic, excessMass,
                    tailMass);
        }
        double half = tailMass / 2;
        long[] window = Chernoff.window(this, count, half);
        long kLo = window[0];
        long kHi = window[1];
        boolean lowCut = window[2] == 1;
        boolean highCut = window[3] == 1;
        long width = kHi - kLo + 1;
        long needed = Math.max(width, probs.length);
        if (needed > MAX_GRID_POINTS) {
            throw new PldGridTooLargeException(needed);
        }
        int n = Fft.nextPowerOfTwo(needed);
        double[] circ = Fft.circularSelfConvolve(probs, n, count);
        double[] out = new double[(int) width];
        long shift = offset * count;
        for (int w = 0; w < width; w++) {
            out[w] = circ[(int) Math.floorMod(kLo + w - shift, (long) n)];
        }
        double excess = 0;
        if (pessimistic) {
            if (lowCut) {
                out[0] += half;
            }
            if (highCut) {
                inf += half;
            }
        } else {
            excess = Math.expm1(count * Math.log1p(excessMass)) + (lowCut ? half : 0) + (highCut ? half : 0);
        }
        return truncate(h, kLo, out, Math.min(1, inf), pessimistic, Math.min(1, excess), tailMass);
    }

    /**
     * Clamps round-off negatives to zero and truncates both tails, each of mass at most tail/2:
     * pessimistic moves the lower tail up to the first kept point and charges the upper tail to +∞;
     * optimistic drops the lower tail and moves the upper tail down to the last kept point.
     */
    static PrivacyLossDistribution truncate(double h, long offset, double[] raw, double inf, boolean pessimistic,
            double excess, double tail) {
        int n = raw.length;
        for (int k = 0; k < n; k++) {
            if (!(raw[k] > 0)) {
                raw[k] = 0;
            }
        }
        double half = tail / 2;
        int lo = 0;
        double low = 0;
        while (lo < n - 1 && low + raw[lo] <= half) {
            low += raw[lo++];
        }
        int hi = n - 1;
        double high = 0;
        while (hi > lo && high + raw[hi] <= half) {
            high += raw[hi--];
        }
        double[] kept = new double[hi - lo + 1];
        System.arraycopy(raw, lo, kept, 0, kept.length);
        double newInf = inf;
        if (pessimistic) {
            kept[0] += low;
            newInf += high;
        } else {
            kept[kept.length - 1] += high;
        }
        return new PrivacyLossDistribution(h, offset + lo, kept, Math.min(1, newInf), pessimistic, excess, tail);
    }

    @Override
    public String toString() {
        return (pessimistic ? "pessimistic" : "optimistic") + " PLD(h=" + h + ", losses " + loss(0) + ".."
                + loss(probs.length - 1) + ", " + probs.length + " points, p(inf)=" + infinityMass + ")";
    }
}
