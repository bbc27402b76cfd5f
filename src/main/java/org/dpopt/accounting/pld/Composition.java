package org.dpopt.accounting.pld;

/**
 * The composition ⊛_i μ_i^{*T_i} of elementary privacy-loss measures (factor PMFs μ_i, counts T_i),
 * evaluated lazily: δ(ε) and ε(δ) are computed directly from the factors, with every numerical error
 * charged in the safe direction (upward for a pessimistic measure, downward for an optimistic one).
 *
 * <p>This class holds the factors and their exact summaries (mass at +∞, the log-MGF
 * K(λ) = Σ_i T_i log M_i(λ) and its first two derivatives, the loss range) and answers the queries:
 * it picks the saddle-point tilt λ with K'(λ) = ε, has {@link TiltedFft} evaluate the tilted
 * convolution on a window, and turns that into bounds with {@link TiltBounds}; the convolution-free
 * {@link ChernoffBound} is a second valid upper bound (the pessimistic answers are the minimum of the
 * two). Saddle-point tilting for the densities of sums is classical (Daniels, "Saddlepoint
 * approximations in statistics", Ann. Math. Statist. 1954); here it only chooses where the FFT is
 * accurate, and every bound holds for any tilt. Derivation: theory-notes/accounting.md §4.
 */
final class Composition {

    /** Smallest tilt used (δ near 1 is still bounded, with a larger error weight). */
    static final double MIN_TILT = 1e-3;
    static final double MAX_TILT = 1e9;
    /** Retilt while the error charges exceed this fraction of δ. */
    private static final double ERROR_SHARE = 1e-3;
    private static final int MAX_TILTS = 3;

    final double h;
    final boolean pessimistic;
    final Pmf[] pmfs;
    final long[] counts;

    Composition(double h, boolean pessimistic, Pmf[] pmfs, long[] counts) {
        this.h = h;
        this.pessimistic = pessimistic;
        this.pmfs = pmfs;
        this.counts = counts;
    }

    private int dir() {
        return pessimistic ? 1 : -1;
    }

    /** True if some factor has an empty finite part (so F = 0). */
    boolean emptyFinite() {
        for (Pmf p : pmfs) {
            if (p.emptyFinite()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The mass at +∞, Π(m_i + u_i)^{T_i} − Π m_i^{T_i}, rounded in the safe direction of the mode
     * (computed as Π m^T · expm1(Σ T log1p(u/m)), no cancellation).
     */
    double infinityMass(int direction) {
        boolean up = direction > 0;
        boolean down = direction < 0;
        // U = A·(1 − Π (1 − r_i)^{T_i}) with A = Π (m_i + u_i)^{T_i} and r_i = u_i/(m_i + u_i): no
        // cancellation, and no mass slack raised to the power T (which for T ~ 1e18 would overflow)
        double logA = 0;
        double logKeep = 0;
        boolean anyInf = false;
        for (int i = 0; i < pmfs.length; i++) {
            Pmf p = pmfs[i];
            boolean empty = p.emptyFinite();
            double m = empty ? 0 : up ? p.massUp : down ? p.massDown : p.mass;
            double mr = empty ? 0 : up ? p.massDown : down ? p.massUp : p.mass; // the safe side for r
            logA += counts[i] * Math.log(m + p.inf);
            if (p.inf > 0) {
                anyInf = true;
                logKeep += counts[i] * Math.log1p(-Math.min(1, p.inf / (mr + p.inf)));
            }
        }
        if (!anyInf) {
            return 0;
        }
        double v = Math.exp(logA) * -Math.expm1(logKeep);
        if (Double.isNaN(v)) {
            return up ? 1 : 0;
        }
        double rel = 16 * Pmf.U * (Math.abs(logA) + Math.abs(logKeep) + 4) + 1e-12;
        return Math.min(1, Math.max(0, up ? v * (1 + rel) : down ? v * (1 - rel) : v));
    }

    /** Σ T_i log M_i(θ), rounded as asked (direction &gt; 0 up, &lt; 0 down, 0 plain). */
    double logMgf(double theta, int direction) {
        double s = 0;
        for (int i = 0; i < pmfs.length; i++) {
            double l = pmfs[i].logMgf(theta, h, direction);
            s += counts[i] * l;
        }
        if (direction != 0 && Double.isFinite(s)) {
            double rel = 4 * Pmf.U * pmfs.length;
            s += direction * rel * (Math.abs(s) + 1);
        }
        return s;
    }

    /** d/dθ Σ T_i log M_i(θ): the mean of the θ-tilted composition. */
    double tiltedMean(double theta) {
        return tiltedMoments(theta)[0];
    }

    /** Mean and variance of the θ-tilted composition (first two derivatives of Σ T_i log M_i). */
    double[] tiltedMoments(double theta) {
        double m = 0;
        double v = 0;
        for (int i = 0; i < pmfs.length; i++) {
            double[] mv = pmfs[i].tiltedMoments(theta, h);
            m += counts[i] * mv[0];
            v += counts[i] * mv[1];
        }
        return new double[] {m, v};
    }

    double minLoss() {
        double s = 0;
        for (int i = 0; i < pmfs.length; i++) {
            s += counts[i] * (double) pmfs[i].offset * h;
        }
        return s;
    }

    double maxLoss() {
        double s = 0;
        for (int i = 0; i < pmfs.length; i++) {
            s += counts[i] * (double) pmfs[i].lastIndex() * h;
        }
        return s;
    }

    /**
     * The tilt λ ∈ [MIN_TILT, MAX_TILT] whose tilted composition has mean {@code target}: Newton's
     * method on u = ln λ (d mean/du = λ·variance), safeguarded by a bisection bracket.
     */
    double saddle(double target) {
        double[] lo = tiltedMoments(MIN_TILT);
        if (lo[0] >= target) {
            return MIN_TILT;
        }
        if (tiltedMean(MAX_TILT) <= target) {
            return MAX_TILT;
        }
        double a = Math.log(MIN_TILT);
        double b = Math.log(MAX_TILT);
        double u = Math.log(1.0);
        for (int it = 0; it < 60 && b - a > 1e-7; it++) {
            double[] mv = tiltedMoments(Math.exp(u));
            double f = mv[0] - target;
            if (f < 0) {
                a = u;
            } else {
                b = u;
            }
            double slope = Math.exp(u) * mv[1];
            double next = slope > 0 ? u - f / slope : Double.NaN;
            if (!(next > a && next < b)) {
                next = 0.5 * (a + b);
            }
            if (Math.abs(next - u) < 1e-6) {
                return Math.exp(next);
            }
            u = next;
        }
        return Math.exp(u);
    }

    // ------------------------------------------------------------------ queries

    /**
     * Evaluates the tilted composition at λ on a window that covers the tilted law's bulk and
     * extends down to at most {@code mustCoverBelow} (see {@link TiltedFft}).
     *
     * @throws PldGridTooLargeException if the window needs more than MAX_GRID_POINTS points
     */
    Tilt evaluate(double lambda, double mustCoverBelow) {
        return TiltedFft.evaluate(this, lambda, mustCoverBelow);
    }

    /** Upper bound on δ(ε) without any convolution (see {@link ChernoffBound}). */
    double chernoffDelta(double epsilon) {
        return ChernoffBound.delta(this, epsilon);
    }

    /** The ε of {@link #chernoffDelta} at δ and its minimizing λ; {+∞, NaN} if none. */
    double[] chernoffEpsilon(double delta) {
        return ChernoffBound.epsilon(this, delta);
    }

    /** Upper (pessimistic) or lower (optimistic) bound on δ(ε), per the mode. */
    double delta(double epsilon) {
        boolean up = pessimistic;
        if (epsilon >= maxLoss()) {
            return infinityMass(dir());
        }
        if (emptyFinite()) {
            return infinityMass(dir());
        }
        double lambda = saddle(epsilon);
        Tilt t = evaluate(lambda, epsilon); // may throw PldGridTooLargeException: the caller coarsens
        if (up) {
            return Math.min(chernoffDelta(epsilon), TiltBounds.deltaUpper(this, t, epsilon));
        }
        return Math.min(1, Math.max(infinityMass(-1), TiltBounds.deltaLower(this, t, epsilon)));
    }

    /**
     * Pessimistic: the smallest certified ε ≥ 0 with δ_upper(ε) ≤ δ (min over up to MAX_TILTS tilts and
     * the Chernoff bound, each valid); optimistic: the largest certified lower bound.
     */
    double epsilon(double delta) {
        return epsilon(delta, Double.NaN);
    }

    /**
     * As {@link #epsilon(double)}, the first tilt centred at {@code hint} if it is a number (an ε
     * close to the answer, e.g. the upper bound when computing the lower one); any hint is sound.
     */
    double epsilon(double delta, double hint) {
        return pessimistic ? epsilonUpper(delta, hint) : epsilonLower(delta, hint);
    }

    private double epsilonUpper(double delta, double hint) {
        double[] ch = chernoffEpsilon(delta);
        double best = ch[0];
        if (best == Double.POSITIVE_INFINITY || emptyFinite()) {
            return Math.max(0, best);
        }
        double guess = Double.isNaN(hint) ? best : Math.min(best, hint);
        for (int it = 0; it < MAX_TILTS; it++) {
            double lambda = saddle(guess);
            double[] r;
            try {
                r = TiltBounds.epsilonUpper(this, evaluate(lambda, Double.POSITIVE_INFINITY), delta);
            } catch (PldGridTooLargeException e) {
                if (it == 0) {
                    throw e; // no FFT evaluation fits this grid: the caller coarsens
                }
                break; // an earlier tilt's bound stands
            }
            best = Math.min(best, r[0]);
            if (r[1] <= ERROR_SHARE && Math.abs(r[0] - guess) <= 0.5 * Math.max(1e-3, Math.abs(guess))) {
                break;
            }
            guess = Math.max(r[0], minLoss());
        }
        return Math.max(0, best);
    }

    private double epsilonLower(double delta, double hint) {
        if (infinityMass(-1) > delta) {
            return Double.POSITIVE_INFINITY;
        }
        if (emptyFinite()) {
            return 0;
        }
        double guess;
        if (!Double.isNaN(hint)) {
            guess = hint;
        } else {
            double[] ch = chernoffEpsilon(delta); // a guess only (Chernoff of the optimistic measure)
            guess = Double.isFinite(ch[0]) ? ch[0] : tiltedMean(MIN_TILT);
        }
        double best = 0;
        for (int it = 0; it < 2; it++) {
            double lambda = saddle(guess);
            double e;
            try {
                e = TiltBounds.epsilonLower(this, evaluate(lambda, guess), delta);
            } catch (PldGridTooLargeException ex) {
                if (it == 0) {
                    throw ex;
                }
                break;
            }
            best = Math.max(best, e);
            if (Math.abs(e - guess) <= 0.25 * Math.max(1e-3, Math.abs(guess))) {
                break; // close to the tilt's centre: a retilt would move the bound little
            }
            guess = e;
        }
        return best;
    }

    /** The composition with every count multiplied by {@code count}. */
    Composition times(long count) {
        long[] c = new long[counts.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = Math.multiplyExact(counts[i], count);
        }
        return new Composition(h, pessimistic, pmfs, c);
    }

    /** This composed with {@code other}; equal factors (same PMF object) are merged. */
    Composition with(Composition other) {
        java.util.List<Pmf> ps = new java.util.ArrayList<>(java.util.List.of(pmfs));
        java.util.List<Long> cs = new java.util.ArrayList<>();
        for (long c : counts) {
            cs.add(c);
        }
        for (int i = 0; i < other.pmfs.length; i++) {
            int at = ps.indexOf(other.pmfs[i]);
            if (at >= 0) {
                cs.set(at, Math.addExact(cs.get(at), other.counts[i]));
            } else {
                ps.add(other.pmfs[i]);
                cs.add(other.counts[i]);
            }
        }
        long[] c = new long[cs.size()];
        for (int i = 0; i < c.length; i++) {
            c[i] = cs.get(i);
        }
        return new Composition(h, pessimistic, ps.toArray(new Pmf[0]), c);
    }

}
