package org.dpopt.noise;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Rigorous enclosures in fixed point: an interval [lo, hi] of integers stands for [lo·2⁻ᵖ, hi·2⁻ᵖ]
 * and always contains the exact real value. Used by the exact samplers when their double-precision
 * fast path cannot decide a comparison. Every rounding is directed (floor for lower ends, ceiling for
 * upper ends) and series tails are bounded explicitly, so no result depends on floating point.
 * Derivations: {@code theory-notes/secure-noise.md} §4. Package-private.
 */
final class Enclosures {
    private Enclosures() {
    }

    /** The cached ln 2 enclosure {lo, hi} and its precision (grown on demand, never shrunk). */
    private static volatile Object[] ln2Cache = computeLn2(512);

    private static Object[] computeLn2(int p) {
        // ln 2 = 2·atanh(1/3)
        BigInteger[] qr = BigInteger.ONE.shiftLeft(p).divideAndRemainder(BigInteger.valueOf(3));
        BigInteger lo = atanhLo(qr[0], p).shiftLeft(1);
        BigInteger hi = atanhHi(qr[0].add(BigInteger.ONE), p).shiftLeft(1);
        return new Object[] {lo, hi, p};
    }

    /** floor(v / 2^k) for k ≥ 0. */
    static BigInteger floorShift(BigInteger v, int k) {
        return v.shiftRight(k);
    }

    /** ceil(v / 2^k) for k ≥ 0. */
    static BigInteger ceilShift(BigInteger v, int k) {
        return v.negate().shiftRight(k).negate();
    }

    /** ceil(a / b) for a ≥ 0, b &gt; 0. */
    private static BigInteger ceilDiv(BigInteger a, BigInteger b) {
        BigInteger[] qr = a.divideAndRemainder(b);
        return qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
    }

    /**
     * A lower bound (units 2⁻ᵖ) of atanh(t) = Σ_{k≥0} t^{2k+1}/(2k+1) for t = tLo·2⁻ᵖ ∈ [0, 1/3]: every
     * term is rounded down and the series is truncated (all terms are positive).
     */
    static BigInteger atanhLo(BigInteger tLo, int p) {
        BigInteger t2 = floorShift(tLo.multiply(tLo), p);
        BigInteger pow = tLo;
        BigInteger sum = BigInteger.ZERO;
        long k = 1;
        while (pow.signum() > 0) {
            sum = sum.add(pow.divide(BigInteger.valueOf(k)));
            pow = floorShift(pow.multiply(t2), p);
            k += 2;
        }
        return sum;
    }

    /**
     * An upper bound (units 2⁻ᵖ) of atanh(t) for a real t ≤ tHi·2⁻ᵖ with t ≤ 1/3: terms rounded up; when
     * the running power P ≥ t^{2k+1}·2ᵖ is small, the tail Σ_{j≥k} t^{2j+1}/(2j+1) ≤ t^{2k+1}/(1 − t²) ≤
     * (9/8)·P·2⁻ᵖ is added as 2P.
     */
    static BigInteger atanhHi(BigInteger tHi, int p) {
        BigInteger t2 = ceilShift(tHi.multiply(tHi), p);
        BigInteger pow = tHi;
        BigInteger sum = BigInteger.ZERO;
        BigInteger small = BigInteger.valueOf(8);
        long k = 1;
        while (pow.compareTo(small) > 0) {
            sum = sum.add(ceilDiv(pow, BigInteger.valueOf(k)));
            pow = ceilShift(pow.multiply(t2), p);
            k += 2;
        }
        return sum.add(pow.shiftLeft(1));
    }

    /** [lo, hi] (units 2⁻ᵖ) enclosing ln 2. */
    static BigInteger[] ln2(int p) {
        Object[] c = ln2Cache;
        int have = (Integer) c[2];
        if (have < p) {
            c = computeLn2(Math.max(p, 2 * have));
            ln2Cache = c;
            have = (Integer) c[2];
        }
        int drop = have - p;
        return new BigInteger[] {floorShift((BigInteger) c[0], drop), ceilShift((BigInteger) c[1], drop)};
    }

    /**
     * [lo, hi] (units 2⁻ᵖ) enclosing ln(a/2ⁿ) for an integer a ≥ 1. With 2ᵉ ≤ a &lt; 2^{e+1} and
     * M = a/2ᵉ ∈ [1, 2): ln(a/2ⁿ) = (e − n)·ln 2 + 2·atanh((M − 1)/(M + 1)), the argument in [0, 1/3).
     */
    static BigInteger[] lnDyadic(BigInteger a, int n, int p) {
        if (a.signum() <= 0) {
            throw new IllegalArgumentException("a must be positive but was " + a);
        }
        int e = a.bitLength() - 1;
        BigInteger pow2e = BigInteger.ONE.shiftLeft(e);
        BigInteger num = a.subtract(pow2e).shiftLeft(p);
        BigInteger[] qr = num.divideAndRemainder(a.add(pow2e));
        BigInteger tLo = qr[0];
        BigInteger tHi = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
        BigInteger lnMLo = atanhLo(tLo, p).shiftLeft(1);
        BigInteger lnMHi = atanhHi(tHi, p).shiftLeft(1);
        BigInteger k = BigInteger.valueOf((long) e - n);
        BigInteger[] l2 = ln2(p);
        BigInteger lo = k.signum() >= 0 ? k.multiply(l2[0]) : k.multiply(l2[1]);
        BigInteger hi = k.signum() >= 0 ? k.multiply(l2[1]) : k.multiply(l2[0]);
        return new BigInteger[] {lo.add(lnMLo), hi.add(lnMHi)};
    }

    /**
     * [lo, hi] (units 2⁻ᵖ) enclosing E = −ln U for the lazy uniform's current interval
     * [A/2ⁿ, (A+1)/2ⁿ]; hi is null (E unbounded) when A = 0.
     */
    static BigInteger[] exponential(LazyUniform u, int p) {
        BigInteger a = u.numerator();
        BigInteger lo = lnDyadic(a.add(BigInteger.ONE), u.n, p)[1].negate();
        if (lo.signum() < 0) {
            lo = BigInteger.ZERO; // U ≤ 1
        }
        BigInteger hi = a.signum() == 0 ? null : lnDyadic(a, u.n, p)[0].negate();
        return new BigInteger[] {lo, hi};
    }

    /** floor(x·2ᵖ) for a finite double x (exact: x = m·2ᵉ with an integer m). */
    static BigInteger floorFixed(double x, int p) {
        if (x == 0) {
            return BigInteger.ZERO;
        }
        long bitsOf = Double.doubleToRawLongBits(x);
        int biased = (int) ((bitsOf >>> 52) & 0x7ff);
        long mantissa = bitsOf & 0xfffffffffffffL;
        int e;
        if (biased == 0) {
            e = -1074;
        } else {
            mantissa |= 1L << 52;
            e = biased - 1075;
        }
        if (x < 0) {
            mantissa = -mantissa;
        }
        return BigInteger.valueOf(mantissa).shiftLeft(e + p); // a negative shift is a floor
    }

    /** ceil(x·2ᵖ) for a finite double x. */
    static BigInteger ceilFixed(double x, int p) {
        return floorFixed(-x, p).negate();
    }

    /** floor(x·2ᵖ) for an exact decimal x. */
    static BigInteger floorFixed(BigDecimal x, int p) {
        return x.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(p))).setScale(0, java.math.RoundingMode.FLOOR)
                .toBigIntegerExact();
    }

    /** ceil(x·2ᵖ) for an exact decimal x. */
    static BigInteger ceilFixed(BigDecimal x, int p) {
        return x.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(p))).setScale(0, java.math.RoundingMode.CEILING)
                .toBigIntegerExact();
    }
}
