package org.dpopt.noise;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Exact samplers behind secure mode. Each returns exactly what the ideal real-number mechanism would
 * return after a fixed, public rounding, so the released value is a deterministic function of the ideal
 * mechanism's (real-valued) output:
 *
 * <ul>
 * <li>{@link #gaussianRelease}: rnd(γ·⌊x/γ + s·Z + ½⌋) with Z ~ N(0, 1), i.e. x + σZ (σ = sγ) rounded to
 * the nearest point of the public grid γℤ, then to the nearest double;</li>
 * <li>{@link #laplaceRelease}: the same with Z ~ Lap(1) (density e^{−|z|}/2);</li>
 * <li>{@link #argmax}: argmax_j (a_j + b·L_j) with L_j ~ Lap(1) i.i.d., over exact reals.</li>
 * </ul>
 *
 * <p>Construction (details and proofs in {@code theory-notes/secure-noise.md}): E = −ln U with U a
 * {@link LazyUniform} is exactly Exp(1); a fair sign gives Lap(1); accepting ±E with probability
 * exp(−(E − 1)²/2) gives N(0, 1) (von Neumann rejection from the Laplace law). Every comparison —
 * acceptance, the rounding ⌊·⌋, the order of two noisy scores — is first tried on a double-precision
 * interval that provably contains the exact value (each operation rounded outwards by a relative
 * 2⁻⁵⁰, which covers IEEE rounding and the 1-ulp error Java guarantees for {@code Math.log} and
 * {@code Math.exp}); if that interval straddles the decision boundary, the comparison is decided with
 * {@link Enclosures} in fixed point, drawing more bits of U as needed. Nothing is ever decided by an
 * unproved floating-point value.
 *
 * <p>Cost per draw (fast path): Laplace one 64-bit word and one logarithm; Gaussian on average 1.32
 * rejection rounds of two words, one logarithm and one exponential. Not thread-safe; package-private.
 */
final class ExactSampler {
    private static final double HALF_ULP_53 = 0x1p-53;

    private final SecureRng rng; // the concrete type keeps the hot call monomorphic
    private final LazyUniform u = new LazyUniform();
    private final LazyUniform v = new LazyUniform();
    private LazyUniform best = new LazyUniform();
    private LazyUniform cand = new LazyUniform();
    /** Comparisons that needed the exact slow path (a diagnostic for tests and benchmarks). */
    long slowPaths;
    /**
     * Test only: skip the double-precision fast path, so that every decision is made in exact
     * arithmetic. Both paths decide the same predicate on the same bits, so outputs must be identical.
     */
    boolean exactOnly;

    ExactSampler(SecureRng rng) {
        this.rng = rng;
    }

    // ---------------------------------------------------------------- outward rounding (fast path)

    /** An upper bound of the exact value whose correctly rounded (or 1-ulp) approximation is r. */
    static double up(double r) {
        return r + (Math.abs(r) * 0x1p-50 + 0x1p-1000);
    }

    /** A lower bound of the exact value whose correctly rounded (or 1-ulp) approximation is r. */
    static double down(double r) {
        return r - (Math.abs(r) * 0x1p-50 + 0x1p-1000);
    }

    // E = −ln U on the 53-bit prefix: written to eLo / eHi (eHi = +∞ when the prefix is 0)
    private double eLo;
    private double eHi;

    private void exponentialBounds(LazyUniform w) {
        if (w.top == 0) {
            eLo = down(-Math.log(HALF_ULP_53)); // U ≤ 2⁻⁵³ ⇒ E ≥ 53 ln 2
            eHi = Double.POSITIVE_INFINITY;
            return;
        }
        double uLo = w.top * HALF_ULP_53;
        double l = -Math.log(uLo); // −ln(uLo) ≥ E
        eHi = up(l);
        // E ≥ −ln(uLo + 2⁻⁵³) ≥ −ln(uLo) − 2⁻⁵³/uLo   (ln(1 + y) ≤ y)
        eLo = Math.max(0, down(down(l) - up(HALF_ULP_53 / uLo)));
    }

    // ---------------------------------------------------------------- Gaussian

    /**
     * rnd(γ·⌊x/γ + s·Z + ½⌋) for one exact Z ~ N(0, 1): the Gaussian release x + σZ, σ = s·γ, rounded
     * to the grid γℤ (γ a power of two, s ≥ 1, both public), then to a double.
     */
    double gaussianRelease(double x, double s, double gamma) {
        return release(x, s, gamma, true);
    }

    /** The same for Z ~ Lap(1): the Laplace release x + bZ, b = s·γ, rounded to γℤ. */
    double laplaceRelease(double x, double s, double gamma) {
        return release(x, s, gamma, false);
    }

    private double release(double x, double s, double gamma, boolean gaussian) {
        double base;
        double f;
        double m;
        if (Math.abs(x) >= 0x1p52 * gamma) {
            // |x| ≥ 2⁵²γ: x is a multiple of γ already
            base = x;
            f = 0;
            m = Double.NaN;
        } else {
            double q = x / gamma; // exact unless q is subnormal (then off by < 2⁻¹⁰⁷⁴, covered by up/down)
            m = Math.rint(q);
            f = q - m; // exact (Sterbenz), |f| ≤ ½
            base = m * gamma;
        }
        long k = gaussian ? roundedGaussian(f, s, x, gamma, m) : roundedLaplace(f, s, x, gamma, m);
        // base + γk is correctly rounded from the exact sum: a function of the ideal release only
        return base + gamma * k;
    }

    /** ⌊f + s·Z + ½⌋ with Z ~ N(0, 1); (x, γ, m) give f exactly to the slow path (m NaN: f = 0). */
    long roundedGaussian(double f, double s, double x, double gamma, double m) {
        while (true) {
            long w = rng.nextLong();
            u.set(w);
            boolean negative = (w & 1L) != 0;
            v.set(rng.nextLong());
            exponentialBounds(u);
            int a = exactOnly ? -1 : acceptFast();
            if (a < 0) {
                slowPaths++;
                a = acceptSlow() ? 1 : 0;
            }
            if (a == 1) {
                return round(f, s, negative, x, gamma, m);
            }
        }
    }

    /** ⌊f + s·L + ½⌋ with L ~ Lap(1). */
    long roundedLaplace(double f, double s, double x, double gamma, double m) {
        long w = rng.nextLong();
        u.set(w);
        exponentialBounds(u);
        return round(f, s, (w & 1L) != 0, x, gamma, m);
    }

    /** Accept E (from u, bounds set) with probability exp(−(E − 1)²/2): 1 yes, 0 no, −1 undecided. */
    private int acceptFast() {
        double mLo;
        double mHi;
        if (eLo >= 1) {
            mLo = down(eLo - 1);
            mHi = up(eHi - 1);
        } else if (eHi <= 1) {
            mLo = down(1 - eHi);
            mHi = up(1 - eLo);
        } else {
            mLo = 0;
            mHi = Math.max(up(1 - eLo), up(eHi - 1));
        }
        mLo = Math.max(0, mLo);
        double qLo = down(down(mLo * mLo) * 0.5);
        double qHi = up(up(mHi * mHi) * 0.5);
        double pLo = down(Math.exp(-qHi));
        double pHi = up(Math.exp(-qLo));
        double vLo = v.top * HALF_ULP_53;
        double vHi = (v.top + 1) * HALF_ULP_53;
        if (vHi < pLo) {
            return 1; // V ≤ vHi < pLo ≤ p
        }
        if (vLo >= pHi) {
            return 0; // V ≥ vLo ≥ pHi ≥ p
        }
        return -1;
    }

    /** Exact: V &lt; exp(−(E − 1)²/2) ⟺ −ln V &gt; (E − 1)²/2, E = −ln U. */
    private boolean acceptSlow() {
        while (true) {
            int p = Math.max(u.n, v.n) + 64;
            BigInteger[] e = Enclosures.exponential(u, p);
            BigInteger[] g = Enclosures.exponential(v, p);
            if (e[1] != null) {
                BigInteger one = BigInteger.ONE.shiftLeft(p);
                BigInteger mLo;
                BigInteger mHi;
                if (e[0].compareTo(one) >= 0) {
                    mLo = e[0].subtract(one);
                    mHi = e[1].subtract(one);
                } else if (e[1].compareTo(one) <= 0) {
                    mLo = one.subtract(e[1]);
                    mHi = one.subtract(e[0]);
                } else {
                    mLo = BigInteger.ZERO;
                    mHi = one.subtract(e[0]).max(e[1].subtract(one));
                }
                BigInteger qLo = Enclosures.floorShift(mLo.multiply(mLo), p + 1);
                BigInteger qHi = Enclosures.ceilShift(mHi.multiply(mHi), p + 1);
                if (g[0].compareTo(qHi) > 0) {
                    return true;
                }
                if (g[1] != null && g[1].compareTo(qLo) <= 0) {
                    return false;
                }
            }
            u.extend(rng);
            v.extend(rng);
        }
    }

    // ---------------------------------------------------------------- rounding

    /** ⌊f ± s·E + ½⌋ for E = −ln U from u (bounds already set). */
    private long round(double f, double s, boolean negative, double x, double gamma, double m) {
        double yLo;
        double yHi;
        if (!negative) {
            yLo = down(f + down(s * eLo));
            yHi = up(f + up(s * eHi));
        } else {
            yLo = down(f - up(s * eHi));
            yHi = up(f - down(s * eLo));
        }
        double kLo = Math.floor(down(yLo + 0.5));
        double kHi = Math.floor(up(yHi + 0.5));
        if (kLo == kHi && !exactOnly) {
            return (long) kLo;
        }
        slowPaths++;
        return roundSlow(s, negative, x, gamma, m);
    }

    private long roundSlow(double s, boolean negative, double x, double gamma, double m) {
        // f exactly: x/γ − m (both exact in decimal), or 0 when x is itself on the grid
        BigDecimal fExact = Double.isNaN(m) ? BigDecimal.ZERO
                : new BigDecimal(x).multiply(new BigDecimal(1.0 / gamma)).subtract(new BigDecimal(m));
        while (true) {
            int p = u.n + 128;
            BigInteger[] e = Enclosures.exponential(u, p);
            if (e[1] != null) {
                BigInteger se0 = Enclosures.floorShift(Enclosures.floorFixed(s, p).multiply(e[0]), p);
                BigInteger se1 = Enclosures.ceilShift(Enclosures.ceilFixed(s, p).multiply(e[1]), p);
                BigInteger f0 = Enclosures.floorFixed(fExact, p);
                BigInteger f1 = Enclosures.ceilFixed(fExact, p);
                BigInteger y0 = negative ? f0.subtract(se1) : f0.add(se0);
                BigInteger y1 = negative ? f1.subtract(se0) : f1.add(se1);
                BigInteger half = BigInteger.ONE.shiftLeft(p - 1);
                BigInteger k0 = Enclosures.floorShift(y0.add(half), p);
                BigInteger k1 = Enclosures.floorShift(y1.add(half), p);
                if (k0.equals(k1)) {
                    return k0.longValueExact();
                }
            }
            u.extend(rng);
        }
    }

    // ---------------------------------------------------------------- report-noisy-max

    /**
     * argmax_{j &lt; count} (sign·scores[j] + b·L_j), L_j ~ Lap(1) i.i.d., decided over exact reals
     * (ties have probability 0 and are never decided by rounding). Scores must be finite.
     */
    int argmax(double[] scores, int count, double sign, double b) {
        int bestIndex = 0;
        double bestA = sign * scores[0];
        long w = rng.nextLong();
        best.set(w);
        boolean bestNeg = (w & 1L) != 0;
        exponentialBounds(best);
        double bLo = bestNeg ? -eHi : eLo; // L_best ∈ [bLo, bHi]
        double bHi = bestNeg ? -eLo : eHi;
        for (int j = 1; j < count; j++) {
            double a = sign * scores[j];
            w = rng.nextLong();
            cand.set(w);
            boolean neg = (w & 1L) != 0;
            exponentialBounds(cand);
            double cLo = neg ? -eHi : eLo;
            double cHi = neg ? -eLo : eHi;
            // candidate wins ⟺ a − bestA > b·(L_best − L_cand)
            double d = a - bestA;
            double dLo = down(d);
            double dHi = up(d);
            double wLo = down(b * down(bLo - cHi));
            double wHi = up(b * up(bHi - cLo));
            boolean wins;
            if (exactOnly) {
                slowPaths++;
                wins = greaterSlow(a, neg, cand, bestA, bestNeg, best, b);
            } else if (dLo > wHi) {
                wins = true;
            } else if (dHi <= wLo) {
                wins = false;
            } else {
                slowPaths++;
                wins = greaterSlow(a, neg, cand, bestA, bestNeg, best, b);
            }
            if (wins) {
                LazyUniform t = best;
                best = cand;
                cand = t;
                bestIndex = j;
                bestA = a;
                bestNeg = neg;
                bLo = cLo;
                bHi = cHi;
            }
        }
        return bestIndex;
    }

    /** Exact: a1 + b·L1 &gt; a2 + b·L2 with L = ±E from the lazy uniforms. */
    private boolean greaterSlow(double a1, boolean neg1, LazyUniform u1, double a2, boolean neg2, LazyUniform u2,
            double b) {
        while (true) {
            int p = Math.max(u1.n, u2.n) + 64 + Math.max(0, -Math.getExponent(b));
            BigInteger[] x1 = noisyScore(a1, neg1, u1, b, p);
            BigInteger[] x2 = noisyScore(a2, neg2, u2, b, p);
            if (x1 != null && x2 != null) {
                if (x1[0].compareTo(x2[1]) > 0) {
                    return true;
                }
                if (x1[1].compareTo(x2[0]) <= 0) {
                    return false;
                }
            }
            u1.extend(rng);
            u2.extend(rng);
        }
    }

    /** [lo, hi] (units 2⁻ᵖ) enclosing a ± b·E, or null while E is unbounded. */
    private static BigInteger[] noisyScore(double a, boolean negative, LazyUniform w, double b, int p) {
        BigInteger[] e = Enclosures.exponential(w, p);
        if (e[1] == null) {
            return null;
        }
        BigInteger be0 = Enclosures.floorShift(Enclosures.floorFixed(b, p).multiply(e[0]), p);
        BigInteger be1 = Enclosures.ceilShift(Enclosures.ceilFixed(b, p).multiply(e[1]), p);
        BigInteger a0 = Enclosures.floorFixed(a, p);
        BigInteger a1 = Enclosures.ceilFixed(a, p);
        return negative ? new BigInteger[] {a0.subtract(be1), a1.subtract(be0)}
                : new BigInteger[] {a0.add(be0), a1.add(be1)};
    }
}
