package org.dpopt.accounting.pld;

import org.dpopt.linalg.Checks;

/**
 * An immutable discretized privacy-loss distribution (PLD): the law, under P, of the privacy loss
 * L = ln(p(X)/q(X)) of an ordered pair (P, Q), supported on the grid {k·h} plus an exactly tracked mass
 * at L = +∞ (outcomes possible under P but not under Q).
 *
 * <p><b>Privacy curve.</b> For every ε the hockey-stick divergence of the pair is
 * <pre>   δ(ε) = Σ_{l &gt; ε} (1 − e^{ε−l})·p(l) + p(∞)   </pre>
 * (Sommer, Meiser, Mohammadi, "Privacy loss classes", PoPETs 2019; Koskela, Jälkö, Honkela, "Computing
 * tight differential privacy guarantees using FFT", AISTATS 2020, arXiv:1906.03049). The PLD of a
 * composition of pairs is the convolution of their PLDs.
 *
 * <p><b>Elementary and composed PLDs.</b> A PLD built from a PMF ({@link #fromPmf} or the factories of
 * {@link PrivacyLossDistributions}) is <em>elementary</em>; its curve is evaluated by the exact sum above.
 * {@link #compose} and {@link #selfCompose} do not convolve: they record the factors and their counts,
 * and every query evaluates the composition directly by an exponentially tilted FFT whose round-off,
 * wrap-around and truncation are all bounded and charged (see theory-notes/accounting.md §4). So
 * composition costs nothing, and each δ(ε) or ε(δ) query costs a few FFTs of the window that matters.
 *
 * <p><b>Two modes.</b> A <em>pessimistic</em> PLD's curve is an upper bound on the true curve at every
 * ε (construction rounds losses up or uses connect-the-dots; every numerical error is charged upward).
 * An <em>optimistic</em> PLD's curve is a lower bound (losses rounded down, errors charged downward).
 * Only PLDs of the same mode and grid compose.
 */
public final class PrivacyLossDistribution {

    /** Largest number of grid points of any PLD or FFT window (2^22); larger requests must coarsen h. */
    public static final int MAX_GRID_POINTS = 1 << 22;

    /**
     * Largest number of grid points of one discretized mechanism (2^21, loss range 210 at h = 1e-4);
     * wider losses (tiny noise multipliers) are refused so that the caller coarsens h.
     */
    public static final int MAX_LEAF_POINTS = 1 << 21;

    private final Composition comp;
    /** The composition's grid spacing and mode, read often. */
    private final double h;
    private final boolean pessimistic;

    private PrivacyLossDistribution(Composition comp) {
        this.comp = comp;
        this.h = comp.h;
        this.pessimistic = comp.pessimistic;
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
     * @param pessimistic the mode (upper-bound or lower-bound semantics)
     */
    public static PrivacyLossDistribution fromPmf(double h, long offset, double[] probs, double infinityMass,
            boolean pessimistic) {
        Checks.positive("h", h);
        Checks.notNull("probs", probs);
        if (probs.length == 0) {
            throw Checks.fail("probs", "non-empty", "[]");
        }
        if (probs.length > MAX_GRID_POINTS) {
            throw Checks.fail("probs length", "at most " + MAX_GRID_POINTS, probs.length);
        }
        if (Math.abs((double) offset) > 1e15 || Math.abs((double) offset + probs.length) > 1e15) {
            throw Checks.fail("offset", "at most 1e15 in magnitude", offset);
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
        return of(h, offset, probs.clone(), infinityMass, pessimistic);
    }

    /** Internal factory without copying or validation (entries finite and ≥ 0). */
    static PrivacyLossDistribution of(double h, long offset, double[] probs, double infinityMass,
            boolean pessimistic) {
        Pmf p = Pmf.of(offset, probs, infinityMass);
        return new PrivacyLossDistribution(new Composition(h, pessimistic, new Pmf[] {p}, new long[] {1}));
    }

    /** Grid spacing h. */
    public double h() {
        return h;
    }

    /** True for an upper-bound (pessimistic) PLD, false for a lower-bound (optimistic) one. */
    public boolean isPessimistic() {
        return pessimistic;
    }

    /** True if this PLD was built from one PMF (not composed). */
    public boolean isElementary() {
        return comp.pmfs.length == 1 && comp.counts[0] == 1;
    }

    private Pmf elementary() {
        if (!isElementary()) {
            throw new IllegalStateException("a composed PLD is evaluated lazily and has no materialized PMF; "
                    + "query delta(epsilon) or epsilon(delta) instead");
        }
        return comp.pmfs[0];
    }

    /** Grid index of the first probability (elementary PLDs only). */
    public long offset() {
        return elementary().offset;
    }

    /** Number of grid points (elementary PLDs only). */
    public int size() {
        return elementary().size();
    }

    /** The loss (offset + k)·h of grid point k (elementary PLDs only). */
    public double loss(int k) {
        return (elementary().offset + k) * h;
    }

    /** Probabilities on the grid, copied (elementary PLDs only). */
    public double[] probabilities() {
        return elementary().probs.clone();
    }

    /** Mass at loss +∞ (for a composition: Π(m_i + u_i)^{T_i} − Π m_i^{T_i}, computed without cancellation). */
    public double infinityMass() {
        return isElementary() ? comp.pmfs[0].inf : comp.infinityMass(0);
    }

    /** Total finite mass Π m_i^{T_i}. */
    public double finiteMass() {
        double s = 0;
        for (int i = 0; i < comp.pmfs.length; i++) {
            Pmf p = comp.pmfs[i];
            s += comp.counts[i] * Math.log(0.5 * (p.massUp + p.massDown));
        }
        return Math.exp(s);
    }

    /**
     * δ(ε) = Σ_{l &gt; ε}(1 − e^{ε−l})p(l) + p(∞), in [0, 1]: for a pessimistic PLD an upper bound on the
     * exact curve of the (discretized) measure, every rounding charged upward; for an optimistic PLD a
     * lower bound.
     *
     * @param epsilon any ε (negative values are meaningful for hockey-stick divergences), not NaN
     * @throws PldGridTooLargeException if a composed PLD's FFT window would exceed
     *         {@link #MAX_GRID_POINTS} (retry with a coarser grid, or use {@link #chernoffDelta})
     */
    public double delta(double epsilon) {
        if (Double.isNaN(epsilon)) {
            throw Checks.fail("epsilon", "a number", epsilon);
        }
        if (epsilon == Double.POSITIVE_INFINITY) {
            return isElementary() ? comp.pmfs[0].inf : comp.infinityMass(pessimistic ? 1 : -1);
        }
        if (epsilon == Double.NEGATIVE_INFINITY) {
            return 1;
        }
        if (isElementary()) {
            return directDelta(comp.pmfs[0], epsilon);
        }
        return comp.delta(epsilon);
    }

    private double directDelta(Pmf p, double epsilon) {
        double[] probs = p.probs;
        double d = 0;
        double pos = epsilon / h - p.offset;
        int start = pos < 0 ? 0 : (pos >= probs.length ? probs.length : (int) Math.floor(pos) + 1);
        if (start > 0 && (p.offset + start - 1) * h > epsilon) {
            start--;
        }
        for (int k = start; k < probs.length; k++) {
            double l = (p.offset + k) * h;
            if (l > epsilon) {
                d += probs[k] * -Math.expm1(epsilon - l);
            }
        }
        double rel = 4 * Pmf.U * (probs.length + 4);
        d = pessimistic ? d * (1 + rel) + p.inf : d * (1 - rel) + p.inf;
        return Math.min(1, Math.max(0, d));
    }

    /**
     * For a pessimistic PLD the smallest certified ε ≥ 0 with δ(ε) ≤ δ (+∞ if the mass at infinity
     * exceeds δ); for an optimistic PLD a certified lower bound on that ε.
     *
     * @param delta δ ∈ (0, 1)
     * @throws PldGridTooLargeException if a composed PLD's FFT window would exceed
     *         {@link #MAX_GRID_POINTS} (retry with a coarser grid, or use {@link #chernoffEpsilon})
     */
    public double epsilon(double delta) {
        Checks.delta("delta", delta);
        if (isElementary()) {
            return directEpsilon(comp.pmfs[0], delta);
        }
        return comp.epsilon(delta);
    }

    /**
     * As {@link #epsilon(double)}, with a hint: an ε near the answer (for instance the pessimistic ε
     * when computing the optimistic one) at which a composed PLD centres its first evaluation. The
     * result is certified for any hint; a good hint only saves work.
     */
    public double epsilon(double delta, double hint) {
        Checks.delta("delta", delta);
        if (isElementary()) {
            return directEpsilon(comp.pmfs[0], delta);
        }
        return comp.epsilon(delta, hint);
    }

    /** Sum of the composition counts (T for a T-fold self-composition). */
    public long totalCount() {
        long t = 0;
        for (long c : comp.counts) {
            t = t + c < 0 ? Long.MAX_VALUE : t + c;
        }
        return t;
    }

    /** Exact inverse of the elementary curve, with the summation's rounding charged. */
    private double directEpsilon(Pmf p, double delta) {
        if (p.inf > delta) {
            return Double.POSITIVE_INFINITY;
        }
        double[] probs = p.probs;
        double rel = 4 * Pmf.U * (probs.length + 4);
        // pessimistic: need (1 + rel)·S + inf ≤ δ; optimistic: a point where (1 − rel)·S + inf > δ
        double target = pessimistic ? (delta - p.inf) / (1 + rel) : (delta - p.inf) / (1 - rel);
        // Scan down: A = Σ_{j>k} p_j, S = Σ_{j>k} p_j e^{l_k − l_j}; on [l_k, l_{k+1}] δ(ε) − inf = A − e^{ε−l_k} S.
        double a = 0;
        double s = 0;
        double eh = Math.exp(-h);
        for (int k = probs.length - 1; k >= 0; k--) {
            double dk = a - s;
            if (dk > target) {
                double eps = (p.offset + k) * h + Math.log((a - target) / s);
                eps += (pessimistic ? 4 : -4) * Pmf.U * (Math.abs(eps) + 1);
                return Math.max(0, eps);
            }
            a += probs[k];
            s = eh * (s + probs[k]);
        }
        if (a > target && s > 0) {
            double eps = p.offset * h - h + Math.log((a - target) / s);
            eps += (pessimistic ? 4 : -4) * Pmf.U * (Math.abs(eps) + 1);
            return Math.max(0, eps);
        }
        return 0;
    }

    /**
     * An upper bound on δ(ε) that needs no convolution (valid for either mode as an upper bound on the
     * measure's own curve): δ(ε) ≤ U + min_λ λ^λ/(1+λ)^{1+λ}·Π M_i(λ)^{T_i}·e^{−λε}, with the MGFs of the
     * factors evaluated exactly (rounded up). Looser than {@link #delta}, but available at any size.
     */
    public double chernoffDelta(double epsilon) {
        if (Double.isNaN(epsilon)) {
            throw Checks.fail("epsilon", "a number", epsilon);
        }
        if (epsilon == Double.POSITIVE_INFINITY) {
            return comp.infinityMass(1);
        }
        return comp.chernoffDelta(epsilon);
    }

    /** The ε of {@link #chernoffDelta} at δ: an upper bound on this measure's ε(δ) at any size. */
    public double chernoffEpsilon(double delta) {
        Checks.delta("delta", delta);
        return Math.max(0, comp.chernoffEpsilon(delta)[0]);
    }

    /** The PLD of the composition with {@code other} (same grid spacing and mode); nothing is convolved yet. */
    public PrivacyLossDistribution compose(PrivacyLossDistribution other) {
        Checks.notNull("other", other);
        if (other.h != h) {
            throw Checks.fail("other PLD grid spacing", "equal to " + h, other.h);
        }
        if (other.pessimistic != pessimistic) {
            throw Checks.fail("other PLD mode", pessimistic ? "pessimistic" : "optimistic",
                    other.pessimistic ? "pessimistic" : "optimistic");
        }
        try {
            return new PrivacyLossDistribution(comp.with(other.comp));
        } catch (ArithmeticException e) {
            throw Checks.fail("composition count", "at most " + Long.MAX_VALUE, "an overflow");
        }
    }

    /**
     * The PLD of {@code count} adaptive compositions of this pair (evaluated lazily by the tilted FFT).
     *
     * @param count T ≥ 1
     */
    public PrivacyLossDistribution selfCompose(long count) {
        Checks.atLeastOne("count", count);
        if (count == 1) {
            return this;
        }
        try {
            return new PrivacyLossDistribution(comp.times(count));
        } catch (ArithmeticException e) {
            throw Checks.fail("count", "at most " + Long.MAX_VALUE + " in total", count + " times the existing counts");
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(pessimistic ? "pessimistic" : "optimistic").append(" PLD(h=").append(h);
        for (int i = 0; i < comp.pmfs.length; i++) {
            Pmf p = comp.pmfs[i];
            sb.append(i == 0 ? ", " : " * ").append("[losses ").append(p.offset * h).append("..")
                    .append(p.lastIndex() * h).append(", ").append(p.size()).append(" points, p(inf)=")
                    .append(p.inf).append("]");
            if (comp.counts[i] != 1) {
                sb.append("^").append(comp.counts[i]);
            }
        }
        return sb.append(")").toString();
    }
}
