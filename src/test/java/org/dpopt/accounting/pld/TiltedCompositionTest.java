package org.dpopt.accounting.pld;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The tilted FFT evaluation against exact arithmetic: on random PMFs composed a few times, the window
 * the FFT computes differs from the exact tilted convolution (BigDecimal, 34 digits) by at most the
 * charged ℓ2 bound e2 — and by at least 10× less in practice, so the bound (Higham's normwise FFT bound
 * with the constants of {@link Fft#normwiseErrorBound}) is conservative for JTransforms. Also: every
 * δ(ε) of the pessimistic mode is at or above the exact one, and the optimistic mode at or below.
 * Seeded (SplittableRandom 2026); deterministic.
 */
class TiltedCompositionTest {

    private static final MathContext MC = MathContext.DECIMAL128;

    private static double[] randomPmf(SplittableRandom r, int n) {
        double[] p = new double[n];
        double s = 0;
        for (int i = 0; i < n; i++) {
            // a smooth bump with a heavy right tail and a few tiny entries, like a privacy-loss PMF
            double x = (i - n / 3.0) / (n / 8.0);
            p[i] = Math.exp(-0.5 * x * x) * (0.5 + r.nextDouble()) + (i > n / 2 ? 1e-9 * Math.exp(-(i - n / 2.0) / 5.0) : 0);
            s += p[i];
        }
        for (int i = 0; i < n; i++) {
            p[i] = p[i] / s * 0.999;
        }
        return p;
    }

    /** The exact T-fold linear self-convolution of p. */
    private static BigDecimal[] exactPower(double[] p, int t) {
        BigDecimal[] base = new BigDecimal[p.length];
        for (int i = 0; i < p.length; i++) {
            base[i] = new BigDecimal(p[i]);
        }
        BigDecimal[] acc = base;
        for (int k = 1; k < t; k++) {
            BigDecimal[] next = new BigDecimal[acc.length + p.length - 1];
            java.util.Arrays.fill(next, BigDecimal.ZERO);
            for (int i = 0; i < acc.length; i++) {
                for (int j = 0; j < p.length; j++) {
                    next[i + j] = next[i + j].add(acc[i].multiply(base[j], MC), MC);
                }
            }
            acc = next;
        }
        return acc;
    }

    @Test
    void computedWindowIsWithinTheChargedErrorOfExactArithmetic() {
        SplittableRandom r = new SplittableRandom(2026);
        double h = 0.01;
        int[][] shapes = {{60, 2}, {120, 3}, {200, 4}, {90, 6}};
        for (int[] sh : shapes) {
            double[] p = randomPmf(r, sh[0]);
            long offset = -sh[0] / 4;
            int t = sh[1];
            Pmf pmf = Pmf.of(offset, p.clone(), 0.001);
            Composition c = new Composition(h, true, new Pmf[] {pmf}, new long[] {t});
            BigDecimal[] exact = exactPower(p, t);
            for (double lambda : new double[] {0.5, 3, 12}) {
                Tilt tilt = c.evaluate(lambda, c.minLoss());
                int n = Fft.nextPowerOfTwo(Math.max(tilt.y.length, 16));
                long first = offset * t; // grid index of exact[0]
                double err2 = 0;
                for (int w = 0; w < tilt.y.length; w++) {
                    long k = tilt.ka + w;
                    // the exact circular value: the exact tilted y(s) = F(s) e^{λs}/Π M̃^T summed over s ≡ k (mod n)
                    double ex = 0;
                    for (long kk = first + Math.floorMod(k - first, (long) n); kk < first + exact.length; kk += n) {
                        ex += exact[(int) (kk - first)].doubleValue() * Math.exp(lambda * (kk * h) - tilt.logScale);
                    }
                    double d = tilt.y[w] - ex;
                    err2 += d * d;
                }
                double err = Math.sqrt(err2);
                assertTrue(err <= tilt.e2, "observed " + err + " above the bound " + tilt.e2);
                assertTrue(err <= tilt.e2 / 10, "bound not conservative enough: observed " + err + ", bound " + tilt.e2);
            }
            // the curve: pessimistic ≥ exact ≥ optimistic at several ε
            Composition low = new Composition(h, false, new Pmf[] {Pmf.of(offset, p.clone(), 0.001)}, new long[] {t});
            for (double eps : new double[] {-0.2, 0, 0.3, 1, 2}) {
                BigDecimal d = BigDecimal.ZERO;
                for (int w = 0; w < exact.length; w++) {
                    double loss = (offset * t + w) * h;
                    if (loss > eps) {
                        d = d.add(exact[w].multiply(new BigDecimal(-Math.expm1(eps - loss)), MC), MC);
                    }
                }
                double exactInf = Math.pow(0.999 + 0.001, t) - Math.pow(0.999, t);
                double exactDelta = d.doubleValue() + exactInf;
                double up = c.delta(eps);
                double lo = low.delta(eps);
                assertTrue(up >= exactDelta * (1 - 1e-15), "pessimistic " + up + " below exact " + exactDelta + " at " + eps);
                assertTrue(lo <= exactDelta * (1 + 1e-15), "optimistic " + lo + " above exact " + exactDelta + " at " + eps);
                assertTrue(up - exactDelta <= 1e-9 * exactDelta + 1e-12, "pessimistic too loose at " + eps);
            }
        }
    }
}
