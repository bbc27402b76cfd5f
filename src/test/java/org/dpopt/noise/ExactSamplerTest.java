package org.dpopt.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.TreeMap;
import java.util.function.DoubleUnaryOperator;
import org.apache.commons.math3.distribution.ChiSquaredDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;

/**
 * The exact samplers against their ideal laws. Generators are {@link SecureRng}s instantiated from fixed
 * test keys (package-private constructor), so every test is reproducible; the stated false-failure
 * probabilities are those of a test run with a fresh random key.
 */
class ExactSamplerTest {

    static SecureRng fixed(int key) {
        byte[] seed = new byte[48];
        for (int i = 0; i < 48; i++) {
            seed[i] = (byte) (key * 131 + i * 7 + 1);
        }
        return new SecureRng(seed);
    }

    private static final NormalDistribution STD = new NormalDistribution(0, 1);

    static double laplaceCdf(double x) {
        return x < 0 ? 0.5 * Math.exp(x) : 1 - 0.5 * Math.exp(-x);
    }

    /**
     * Chi-square goodness of fit of counts (value → count, n draws) against pmf(k) = F((k + ½ − f)/s) −
     * F((k − ½ − f)/s): cells with expected count &lt; 20 are pooled into the two tails. Returns the
     * statistic's upper-tail p-value.
     */
    static double chiSquarePValue(TreeMap<Long, Integer> counts, int n, double f, double s, DoubleUnaryOperator cdf) {
        long lo = counts.firstKey();
        long hi = counts.lastKey();
        // central cells with expected ≥ 20
        double stat = 0;
        int cells = 0;
        double tailLoP = 0;
        long tailLoC = 0;
        double tailHiP = 0;
        long tailHiC = 0;
        long mode = Math.round(f);
        for (long k = lo - 2; k <= hi + 2; k++) {
            double p = cdf.applyAsDouble((k + 0.5 - f) / s) - cdf.applyAsDouble((k - 0.5 - f) / s);
            int c = counts.getOrDefault(k, 0);
            if (n * p >= 20) {
                stat += (c - n * p) * (c - n * p) / (n * p);
                cells++;
            } else if (k < mode) {
                tailLoP += p;
                tailLoC += c;
            } else {
                tailHiP += p;
                tailHiC += c;
            }
        }
        tailLoP += cdf.applyAsDouble((lo - 2.5 - f) / s);
        tailHiP += 1 - cdf.applyAsDouble((hi + 2.5 - f) / s);
        for (double[] t : new double[][] {{tailLoP, tailLoC}, {tailHiP, tailHiC}}) {
            if (n * t[0] >= 1) {
                stat += (t[1] - n * t[0]) * (t[1] - n * t[0]) / (n * t[0]);
                cells++;
            } else {
                assertTrue(t[1] <= 3, "tail count " + t[1] + " where " + n * t[0] + " expected");
            }
        }
        return 1 - new ChiSquaredDistribution(Math.max(1, cells - 1)).cumulativeProbability(stat);
    }

    /** Kolmogorov–Smirnov statistic of sorted-later samples against cdf. */
    static double ks(double[] xs, DoubleUnaryOperator cdf) {
        double[] a = xs.clone();
        java.util.Arrays.sort(a);
        int n = a.length;
        double d = 0;
        for (int i = 0; i < n; i++) {
            double fx = cdf.applyAsDouble(a[i]);
            d = Math.max(d, Math.max(fx - (double) i / n, (double) (i + 1) / n - fx));
        }
        return d;
    }

    /** KS critical value at level α (asymptotic Kolmogorov law: P(√n·D &gt; t) ≤ 2e^{−2t²}). */
    static double ksCritical(int n, double alpha) {
        return Math.sqrt(Math.log(2 / alpha) / (2.0 * n));
    }

    // ------------------------------------------------------------------ exact law at small scale

    /**
     * s = σ/γ ∈ {0.3, 1, 2.5}: the grid is as coarse as (or coarser than) σ, so the pmf
     * P(K = k) = F((k + ½ − f)/s) − F((k − ½ − f)/s) is far from a sampled density. n = 2e5 per case,
     * 9 cases; each p-value must exceed 1e-7 (false failure ≤ 9e-7 per sampler).
     */
    private static void assertExactRoundedLaw(boolean gaussian, int firstKey) {
        int n = 200_000;
        int key = firstKey;
        for (double s : new double[] {0.3, 1.0, 2.5}) {
            for (double f : new double[] {0.0, 0.37, -0.5}) {
                ExactSampler ex = new ExactSampler(fixed(key++));
                TreeMap<Long, Integer> counts = new TreeMap<>();
                for (int i = 0; i < n; i++) {
                    long k = gaussian ? ex.roundedGaussian(f, s, f, 1.0, 0.0) : ex.roundedLaplace(f, s, f, 1.0, 0.0);
                    counts.merge(k, 1, Integer::sum);
                }
                double p = gaussian ? chiSquarePValue(counts, n, f, s, STD::cumulativeProbability)
                        : chiSquarePValue(counts, n, f, s, ExactSamplerTest::laplaceCdf);
                assertTrue(p > 1e-7, (gaussian ? "gaussian" : "laplace") + " s=" + s + " f=" + f + " p=" + p + " " + counts);
            }
        }
    }

    @Test
    void roundedGaussianHasTheExactDiscreteLawWhereTheGridIsCoarse() {
        assertExactRoundedLaw(true, 1);
    }

    @Test
    void roundedLaplaceHasTheExactDiscreteLawWhereTheGridIsCoarse() {
        assertExactRoundedLaw(false, 20);
    }

    // ------------------------------------------------------------------ fast path = exact path

    @Test
    void fastPathDecidesExactlyWhatExactArithmeticDecides() {
        // Same key, one sampler with the fast path and one deciding everything in fixed point: every
        // output must be identical (the fast path may only decide what is provably decided). Scales from
        // coarse (0.7) to the release (2^24·1.3) and objective (2^40·1.7) grids, plus argmax with
        // near-equal and huge scores.
        double[][] cases = {{0.7, 0.2}, {5.3, -0.5}, {0x1.3p24, 0.0}, {0x1.3p24, 0.4999}, {0x1.bp40, -0.123}};
        int key = 40;
        for (double[] c : cases) {
            ExactSampler fast = new ExactSampler(fixed(key));
            ExactSampler slow = new ExactSampler(fixed(key));
            slow.exactOnly = true;
            for (int i = 0; i < 1500; i++) {
                assertEquals(slow.roundedGaussian(c[1], c[0], c[1], 1.0, 0.0),
                        fast.roundedGaussian(c[1], c[0], c[1], 1.0, 0.0), "gaussian s=" + c[0] + " draw " + i);
                assertEquals(slow.roundedLaplace(c[1], c[0], c[1], 1.0, 0.0),
                        fast.roundedLaplace(c[1], c[0], c[1], 1.0, 0.0), "laplace s=" + c[0] + " draw " + i);
            }
            key++;
        }
        double[][] scoreSets = {{0, 0.5, 1, 1e-9, -3}, {1e15, 1e15, 1e15 + 0.125, 1e15}, {-2, 7, 7, 7.000001}};
        for (double[] scores : scoreSets) {
            ExactSampler fast = new ExactSampler(fixed(key));
            ExactSampler slow = new ExactSampler(fixed(key));
            slow.exactOnly = true;
            for (int i = 0; i < 800; i++) {
                assertEquals(slow.argmax(scores, scores.length, 1, 0.75), fast.argmax(scores, scores.length, 1, 0.75));
                assertEquals(slow.argmax(scores, scores.length, -1, 0.03), fast.argmax(scores, scores.length, -1, 0.03));
            }
            key++;
        }
    }

    // ------------------------------------------------------------------ continuous law at the release grid

    @Test
    void releasesFollowTheContinuousLawsAtReleaseScale() {
        // x = 0, σ/γ ∈ [2^24, 2^25): the rounding is 2^-25 σ, far below KS resolution. n = 1e5 per
        // case, α = 1e-7 per case (6 cases): false failure ≤ 6e-7.
        int n = 100_000;
        int key = 60;
        for (double sigma : new double[] {1e-3, 1.0, 7.5e5}) {
            double gamma = SecureNoise.releaseGrid(sigma);
            double s = sigma / gamma;
            ExactSampler ex = new ExactSampler(fixed(key++));
            double[] g = new double[n];
            double[] l = new double[n];
            for (int i = 0; i < n; i++) {
                g[i] = ex.gaussianRelease(0.0, s, gamma) / sigma;
                l[i] = ex.laplaceRelease(0.0, s, gamma) / sigma;
            }
            assertTrue(ks(g, STD::cumulativeProbability) < ksCritical(n, 1e-7), "gaussian sigma=" + sigma);
            assertTrue(ks(l, ExactSamplerTest::laplaceCdf) < ksCritical(n, 1e-7), "laplace b=" + sigma);
        }
    }

    // ------------------------------------------------------------------ grid and exact rounding of the input

    @Test
    void releaseIsOnThePublicGridAndShiftsExactlyWithTheInput() {
        // Whatever the input's low-order bits, the release lies on γℤ; and with the same random bits,
        // moving x by jγ moves the release by exactly jγ (it is round((x + σZ)/γ)·γ, a function of
        // the ideal output x + σZ only).
        double sigma = 0.8;
        double gamma = SecureNoise.releaseGrid(sigma);
        double s = sigma / gamma;
        java.util.Random r = new java.util.Random(5);
        for (int i = 0; i < 2000; i++) {
            double x = (r.nextDouble() - 0.5) * Math.scalb(1.0, r.nextInt(40) - 20);
            long j = r.nextInt(2_000_001) - 1_000_000;
            ExactSampler a = new ExactSampler(fixed(1000 + i));
            ExactSampler b = new ExactSampler(fixed(1000 + i));
            double ra = a.gaussianRelease(x, s, gamma);
            double rb = b.gaussianRelease(x + j * gamma, s, gamma);
            assertEquals(0.0, Math.IEEEremainder(ra, gamma), 0.0, "off grid: " + ra);
            assertEquals(j * gamma, rb - ra, 0.0);
            double la = a.laplaceRelease(x, s, gamma);
            assertEquals(0.0, Math.IEEEremainder(la, gamma), 0.0);
        }
    }

    @Test
    void inputsFarAboveTheGridAndTinyInputsAreHandledExactly() {
        double gamma = 0x1p-20;
        double s = 0x1.8p24;
        // |x| ≥ 2^52 γ: x is on the grid, release = rnd(x + γK) with K the same integer as for x = 0
        ExactSampler a = new ExactSampler(fixed(7));
        ExactSampler b = new ExactSampler(fixed(7));
        double big = 0x1p40 + 0x1p-12;
        double k0 = b.gaussianRelease(0.0, s, gamma) / gamma;
        assertEquals(big + gamma * k0, a.gaussianRelease(big, s, gamma), 0.0);
        // a subnormal input with a large grid (x/γ underflows): still the exact round((x + σZ)/γ)
        ExactSampler c = new ExactSampler(fixed(8));
        ExactSampler d = new ExactSampler(fixed(8));
        double g2 = 0x1p900;
        assertEquals(d.gaussianRelease(0.0, s, g2), c.gaussianRelease(Double.MIN_VALUE, s, g2), 0.0);
    }

    // ------------------------------------------------------------------ report-noisy-max

    @Test
    void argmaxTwoCandidateClosedFormAndExactTies() {
        // gap g = 1, b = 0.5: P(better wins) = 1 − ½e^{−g/b}(1 + g/(2b)) = 0.8646647 (as for the seeded
        // RNM). n = 4e5: sd 5.4e-4; 5 sd ⇒ false failure ≈ 6e-7.
        ExactSampler ex = new ExactSampler(fixed(90));
        int n = 400_000;
        int wins = 0;
        double[] s2 = {0.0, 1.0};
        for (int i = 0; i < n; i++) {
            wins += ex.argmax(s2, 2, 1.0, 0.5);
        }
        assertEquals(0.8646647, (double) wins / n, 2.7e-3);
        // equal scores: every index equally likely (floating-point or discrete noise would favour the
        // first on ties). 4 candidates at 1e15 (noise far below the scores' ulp spacing in relative
        // terms: every comparison goes through exact arithmetic) and at 0.
        for (double level : new double[] {0.0, 1e15}) {
            double[] eq = {level, level, level, level};
            int[] c = new int[4];
            int m = level == 0 ? 200_000 : 20_000;
            for (int i = 0; i < m; i++) {
                c[ex.argmax(eq, 4, 1.0, 1e-3)]++;
            }
            double chi = 0;
            for (int j = 0; j < 4; j++) {
                chi += (c[j] - m / 4.0) * (c[j] - m / 4.0) / (m / 4.0);
            }
            // χ²(3) upper 1e-6 quantile is 30.7: false failure 1e-6 per level
            assertTrue(chi < 30.7, "ties not uniform at " + level + ": " + java.util.Arrays.toString(c));
        }
    }

    // ------------------------------------------------------------------ enclosures

    @Test
    void logarithmEnclosuresContainTheValueAndAreTight() {
        MathContext mc = new MathContext(60);
        BigDecimal ln2 = new BigDecimal("0.693147180559945309417232121458176568075500134360255254120680");
        for (int p : new int[] {64, 200, 700}) {
            BigInteger[] l2 = Enclosures.ln2(p);
            BigDecimal scale = new BigDecimal(BigInteger.ONE.shiftLeft(p));
            if (p <= 190) {
                assertTrue(new BigDecimal(l2[0]).divide(scale, mc).compareTo(ln2) <= 0);
                assertTrue(new BigDecimal(l2[1]).divide(scale, mc).compareTo(ln2) >= 0);
            }
            assertTrue(l2[1].subtract(l2[0]).compareTo(BigInteger.valueOf(64)) < 0, "ln2 width at " + p);
        }
        java.util.Random r = new java.util.Random(3);
        for (int i = 0; i < 300; i++) {
            long a = (r.nextLong() >>> 11) | 1;
            BigInteger[] e = Enclosures.lnDyadic(BigInteger.valueOf(a), 53, 120);
            double exact = Math.log(a * 0x1p-53); // within 1 ulp
            double lo = e[0].doubleValue() * 0x1p-120;
            double hi = e[1].doubleValue() * 0x1p-120;
            assertTrue(lo <= exact + Math.ulp(exact) && hi >= exact - Math.ulp(exact), a + ": " + lo + " " + hi);
            assertTrue(e[1].subtract(e[0]).compareTo(BigInteger.valueOf(1 << 10)) < 0);
        }
        // fixed-point conversions are exact floors / ceilings
        assertEquals(BigInteger.valueOf(3), Enclosures.floorFixed(0.75, 2));
        assertEquals(BigInteger.valueOf(-3), Enclosures.floorFixed(-0.75, 2));
        assertEquals(BigInteger.valueOf(-2), Enclosures.floorFixed(-0.375, 2));
        assertEquals(BigInteger.valueOf(-1), Enclosures.ceilFixed(-0.375, 2));
        assertEquals(BigInteger.ONE, Enclosures.ceilFixed(Double.MIN_VALUE, 10));
        assertEquals(BigInteger.ZERO, Enclosures.floorFixed(Double.MIN_VALUE, 10));
    }

    @Test
    void lazyUniformRefusesToGrowBeyondTheCap() {
        LazyUniform u = new LazyUniform();
        SecureRng rng = fixed(3);
        u.set(rng.nextLong());
        assertThrows(IllegalStateException.class, () -> {
            while (true) {
                u.extend(rng);
            }
        });
        assertTrue(u.n <= LazyUniform.MAX_BITS);
    }
}
