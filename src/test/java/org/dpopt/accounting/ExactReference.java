package org.dpopt.accounting;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.math3.special.Erf;

/**
 * Independent high-accuracy reference for the privacy curve of T Poisson-subsampled Gaussian releases
 * (rate q, noise multiplier z, add/remove-one, the worse of the two directions) — the generator of
 * {@code src/test/resources/accounting/exact_reference.csv}. It shares no code with the accountants:
 * no grid of the privacy loss, no FFT, its own normal tails (Commons Math {@code erfc} and a
 * continued fraction), and it works on the <em>continuous</em> mechanism.
 *
 * <p><b>Contour integral (moderate noise).</b> For c &gt; 0 and every real x,
 * (1 − e^{−x})_+ = (1/2πi)∫_{c−i∞}^{c+i∞} e^{λx}/(λ(λ+1)) dλ, so with S the sum of the T per-step losses
 * under P and M(λ) = E_P[e^{λL}],
 * <pre>   δ(ε) = E[(1 − e^{ε−S})_+] = (1/π) ∫_0^∞ Re[ M(c+it)^T e^{−(c+it)ε} / ((c+it)(c+it+1)) ] dt.   </pre>
 * M is a one-dimensional integral over the Gaussian output x: for removal
 * M(λ) = ∫ φ_z(x) w(x)^{λ+1} dx, for addition M(λ) = ∫ φ_z(x) w(x)^{−λ} dx, with
 * w(x) = 1 − q + q e^{(2x−1)/(2z²)}. Both integrands are analytic in the strip |Im x| &lt; πz², so the
 * trapezoidal rule with step z²/10 converges geometrically (error ≈ e^{−2π·0.9πz²/h} ≈ e^{−170}); c is
 * the saddle point of M(c)^T e^{−cε}/(c(c+1)), and the t-integral is again a trapezoidal rule on an
 * analytic, Gaussian-like integrand, with step and range set by T·Var. Each value is computed at two
 * resolutions and the generator refuses rows where they differ by more than 1e-8 relative.
 *
 * <p><b>Hit conditioning (tiny noise, z ≤ 0.05).</b> Conditionally on the K ~ Bin(T, q) steps that
 * include the record, a step without it has loss log(1 − q) up to at most q e^{−0.05/z²}/(1 − q)
 * except with probability Φ̄(0.45/z), and a step with it has loss log q + 1/(2z²) + W/z (W standard
 * normal) up to at most (1 − q)/q·e^{−(1/(2z²) − 9/z)} except with probability Φ̄(9); so given K the
 * total loss is Gaussian N(m_K, K/z²) up to those bounds, and
 * E[(1 − e^{ε−S})_+ | K] = Φ((m−ε)/s) − e^{ε−m+s²/2}Φ((m−ε−s²)/s) in closed form. The add direction's
 * loss is at most −log(1 − q) per step, so its δ vanishes for ε ≥ −T log(1 − q); it is included by
 * the same contour integral where that bound does not settle it. The neglected terms are added to the
 * reported uncertainty column.
 */
final class ExactReference {
    private ExactReference() {
    }

    // ------------------------------------------------------------------ normal tails (own evaluation)

    /** log Φ̄(x) = log P(N(0,1) &gt; x), accurate in both tails. */
    static double logUpper(double x) {
        if (x < 25) {
            return Math.log(0.5 * Erf.erfc(x / Math.sqrt(2)));
        }
        // Mills ratio by its continued fraction: Φ̄(x) = φ(x)/(x + 1/(x + 2/(x + 3/(x + …))))
        double f = x;
        for (int k = 60; k >= 1; k--) {
            f = x + k / f;
        }
        return -0.5 * x * x - 0.5 * Math.log(2 * Math.PI) - Math.log(f);
    }

    static double upper(double x) {
        return Math.exp(logUpper(x));
    }

    // ------------------------------------------------------------------ contour integral

    /** Complex numbers as double[2]. */
    private static double[] mgf(double q, double z, double cr, double ci, boolean remove, double hx) {
        double z2 = z * z;
        double lo = -12 * z - 1;
        double hi = (remove ? cr + 1 : 0) + 12 * z + 2;
        int n = (int) Math.ceil((hi - lo) / hx);
        double logq = Math.log(q);
        double log1mq = Math.log1p(-q);
        // exponent of |integrand| at each node: -x²/(2z²) + a·log w ; shift by the max for accuracy
        double a = remove ? cr + 1 : -cr;
        double b = remove ? ci : -ci;
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 0; k <= n; k++) {
            double x = lo + k * hx;
            double lw = logAdd(log1mq, logq + (2 * x - 1) / (2 * z2));
            max = Math.max(max, -x * x / (2 * z2) + a * lw);
        }
        double re = 0;
        double im = 0;
        for (int k = 0; k <= n; k++) {
            double x = lo + k * hx;
            double lw = logAdd(log1mq, logq + (2 * x - 1) / (2 * z2));
            double mag = Math.exp(-x * x / (2 * z2) + a * lw - max) * (k == 0 || k == n ? 0.5 : 1);
            re += mag * Math.cos(b * lw);
            im += mag * Math.sin(b * lw);
        }
        double scale = max + Math.log(hx / (z * Math.sqrt(2 * Math.PI)));
        // return log-modulus and argument
        return new double[] {scale + 0.5 * Math.log(re * re + im * im), Math.atan2(im, re)};
    }

    private static double logAdd(double u, double v) {
        double m = Math.max(u, v);
        return m + Math.log1p(Math.exp(-Math.abs(u - v)));
    }

    /** log δ(ε) of one direction by the contour integral at resolution factor {@code r} (1 or 2). */
    static double logDeltaContour(double q, double z, long t, double eps, boolean remove, int r) {
        double hx = z * z / (10.0 * r);
        // saddle point of T log M(c) − cε − log(c(c+1)) on c > 0: expand from a small c while the
        // (convex) function decreases, then golden section on log c inside the last bracket
        java.util.function.DoubleUnaryOperator f = c -> t * mgf(q, z, c, 0, remove, hx)[0] - c * eps
                - Math.log(c * (c + 1));
        double cHi = 1e-4;
        double fPrev = f.applyAsDouble(cHi);
        for (int k = 0; k < 60; k++) {
            double next = f.applyAsDouble(cHi * 2);
            cHi *= 2;
            if (next > fPrev) {
                break;
            }
            fPrev = next;
        }
        double a = Math.log(Math.max(1e-4, cHi / 4));
        double b = Math.log(cHi);
        double g = (Math.sqrt(5) - 1) / 2;
        double x1 = b - g * (b - a);
        double x2 = a + g * (b - a);
        double f1 = f.applyAsDouble(Math.exp(x1));
        double f2 = f.applyAsDouble(Math.exp(x2));
        for (int it = 0; it < 50; it++) {
            if (f1 < f2) {
                b = x2;
                x2 = x1;
                f2 = f1;
                x1 = b - g * (b - a);
                f1 = f.applyAsDouble(Math.exp(x1));
            } else {
                a = x1;
                x1 = x2;
                f1 = f2;
                x2 = a + g * (b - a);
                f2 = f.applyAsDouble(Math.exp(x2));
            }
        }
        double c = Math.exp(0.5 * (a + b));
        double[] m0 = mgf(q, z, c, 0, remove, hx);
        double logBase = t * m0[0] - c * eps; // log |M(c)^T e^{−cε}|
        // width of the integrand in t: 1/sqrt(T·K''(c)), K'' (the tilted step's variance) from second
        // differences of the real log-MGF
        double e = 1e-2 * c;
        double k2 = (mgf(q, z, c + e, 0, remove, hx)[0] - 2 * m0[0] + mgf(q, z, c - e, 0, remove, hx)[0]) / (e * e);
        k2 = Math.max(k2, 1e-300);
        double width = 1 / Math.sqrt(t * k2 + 1e-300);
        width = Math.min(width, 1e6);
        double dt = Math.min(width, c) / (4.0 * r); // resolves both M^T and 1/(λ(λ+1)) (scale c)
        double sum = 0;
        for (int k = 0; k < 2_000_000; k++) {
            double tt = k * dt;
            double[] m = tt == 0 ? m0 : mgf(q, z, c, tt, remove, hx);
            // log of |M^T e^{−(c+it)ε}| relative to its value at t = 0, and its phase
            double logMag = t * m[0] - c * eps - logBase;
            double phase = t * m[1] - tt * eps;
            // 1/((c+it)(c+1+it)) = conj / |.|²
            double ar = c * (c + 1) - tt * tt;
            double ai = tt * (2 * c + 1);
            double den = ar * ar + ai * ai;
            double mag = Math.exp(logMag);
            double vr = mag * (Math.cos(phase) * ar + Math.sin(phase) * ai) / den;
            double w = k == 0 ? 0.5 : 1;
            sum += w * vr;
            if (k > 20 && mag / Math.sqrt(den) < 1e-22 * Math.max(1e-300, Math.abs(sum))) {
                break;
            }
        }
        double integral = sum * dt / Math.PI;
        if (!(integral > 0)) {
            return Double.NEGATIVE_INFINITY;
        }
        return logBase + Math.log(integral);
    }

    // ------------------------------------------------------------------ hit conditioning

    /**
     * log δ_G(ε) of the removal direction for tiny z by conditioning on the number of hits, where every
     * step without the record has loss exactly log(1 − q) and every step with it loss exactly
     * log q + 1/(2z²) + W/z (class comment). Every neglected effect only raises losses, so the true δ is
     * at least δ_G; {@link #hitConditionedSlack} bounds how much higher it can be.
     */
    static double hitConditioned(double q, double z, long t, double eps) {
        double log1mq = Math.log1p(-q);
        double mu = Math.log(q) + 1 / (2 * z * z);
        BinomialDistribution bin = new BinomialDistribution(null, (int) t, q);
        int kHi = hitRange(q, t);
        double sum = 0;
        for (int k = 1; k <= kHi; k++) {
            double m = (t - k) * log1mq + k * mu;
            double s = Math.sqrt(k) / z;
            // E[(1 − e^{ε − S})_+], S ~ N(m, s²): Φ((m−ε)/s) − e^{ε−m+s²/2}Φ((m−ε−s²)/s)
            double lf = logUpper(-(m - eps) / s);
            double secondLog = eps - m + s * s / 2 + logUpper(-(m - eps - s * s) / s);
            if (secondLog >= lf) {
                continue;
            }
            double v = Math.exp(lf + Math.log1p(-Math.exp(secondLog - lf)));
            sum += Math.exp(bin.logProbability(k)) * v;
        }
        // K = 0: the loss T·log(1 − q) < 0 ≤ ε contributes nothing
        return Math.log(sum);
    }

    private static int hitRange(double q, long t) {
        double mean = t * q;
        double sd = Math.sqrt(t * q * (1 - q));
        return (int) Math.min(t, Math.ceil(mean + 40 * sd + 50));
    }

    /**
     * {neglected probability, loss shift} of the hit conditioning at δ: a step without the record has
     * output x &gt; x0 with probability Φ̄(x0/z), and otherwise loss at most log(1 − q) + q e^{−(1−2x0)/(2z²)}/(1 − q);
     * a step with it has W &lt; −9 with probability Φ̄(9), and otherwise loss at most the Gaussian one plus
     * (1 − q)/q·e^{−(1/(2z²) − 9/z)}; more than kHi hits has the binomial tail probability. x0 is chosen so
     * that T·Φ̄(x0/z) ≤ 1e-4·δ.
     */
    static double[] hitConditionedSlack(double q, double z, long t, double delta) {
        int kHi = hitRange(q, t);
        double target = 1e-4 * delta / t;
        double x0 = 0.45;
        while (x0 < 0.4999 && upper(x0 / z) > target) {
            x0 += 0.0005;
        }
        BinomialDistribution bin = new BinomialDistribution(null, (int) t, q);
        double neglected = t * upper(x0 / z) + (double) kHi * upper(9) + (1 - bin.cumulativeProbability(kHi));
        double shift = t * q * Math.exp(-(1 - 2 * x0) / (2 * z * z)) / (1 - q)
                + kHi * (1 - q) / q * Math.exp(-(1 / (2 * z * z) - 9 / z));
        return new double[] {neglected, shift};
    }

    // ------------------------------------------------------------------ ε(δ)

    /** One reference row: the true ε lies in [epsilonLow, epsilonHigh]; the method used. */
    record Row(double z, double q, long t, double delta, double epsilonLow, double epsilonHigh, String method) {
    }

    /** ε(δ) for the worse direction, bracketed. */
    static Row epsilon(double z, double q, long t, double delta) {
        if (t == 1) {
            // closed form; removal dominates at the δ used here (addition's ε is at most −log(1 − q))
            double e = bisect(eps -> logSingleStep(q, z, eps), Math.log(delta), 0, 1e5);
            e = Math.max(e, 0);
            return new Row(z, q, t, delta, e * (1 - 1e-9), Math.max(e, addBound(q, 1, delta)) * (1 + 1e-9),
                    "single-step closed form (removal), own normal tails");
        }
        if (z <= 0.05) {
            double low = bisect(eps -> hitConditioned(q, z, t, eps), Math.log(delta), 0, 1e9);
            double[] slack = hitConditionedSlack(q, z, t, delta);
            if (!(slack[0] < 0.5 * delta)) {
                throw new IllegalStateException("hit conditioning not accurate enough at z=" + z + ", T=" + t);
            }
            double high = bisect(eps -> hitConditioned(q, z, t, eps), Math.log(delta - slack[0]), 0, 1e9) + slack[1];
            return new Row(z, q, t, delta, low * (1 - 1e-9), Math.max(high, addBound(q, t, delta)) * (1 + 1e-9),
                    "hit-conditioned Gaussian mixture (removal; lower end exact, upper end with the neglected "
                    + "terms); addition bounded by -T log(1-q)");
        }
        double best = 0;
        double unc = 0;
        for (boolean remove : new boolean[] {true, false}) {
            double e1 = bisect(eps -> logDeltaContour(q, z, t, eps, remove, 1), Math.log(delta), 0, 1e4);
            double e2 = bisect(eps -> logDeltaContour(q, z, t, eps, remove, 2), Math.log(delta), 0, 1e4);
            if (Math.abs(e1 - e2) > 1e-8 * Math.max(1, e2)) {
                throw new IllegalStateException("contour integral not converged: " + e1 + " vs " + e2);
            }
            best = Math.max(best, e2);
            unc = Math.max(unc, Math.abs(e1 - e2) + 1e-9 * e2);
        }
        return new Row(z, q, t, delta, best - 10 * unc, best + 10 * unc,
                "contour integral (saddle point) of the continuous mechanism, both directions");
    }

    /** ε where the addition direction's δ surely vanishes: δ_add(ε) ≤ (1 − e^{ε + T log(1−q)})_+. */
    private static double addBound(double q, long t, double delta) {
        // (1 − e^{ε − a}) ≤ δ ⇔ ε ≥ a + log(1 − δ), a = −T log(1 − q); only a lower ε is certain to be below
        return Math.max(0, -t * Math.log1p(-q) + Math.log1p(-delta));
    }

    /** log of the single-step removal δ(ε) (closed form). */
    static double logSingleStep(double q, double z, double eps) {
        double logB = eps > 700 ? eps + Math.log1p(-(1 - q) * Math.exp(-eps)) : Math.log(Math.expm1(eps) + q);
        double x = z * z * (logB - Math.log(q)) + 0.5;
        double la = Math.log(q) + logUpper((x - 1) / z);
        double lb = logB + logUpper(x / z);
        return la + Math.log1p(-Math.exp(lb - la));
    }

    /** The ε in [lo, hi] where the decreasing function logDelta crosses target (bisection, 1e-12). */
    private static double bisect(java.util.function.DoubleUnaryOperator logDelta, double target, double lo, double hi) {
        if (!(logDelta.applyAsDouble(lo) > target)) {
            return lo;
        }
        double h = Math.min(hi, 1);
        while (logDelta.applyAsDouble(h) > target) {
            lo = h;
            h *= 2;
            if (h > hi) {
                throw new IllegalStateException("epsilon above " + hi);
            }
        }
        hi = h;
        for (int it = 0; it < 200 && hi - lo > 1e-12 * Math.max(1, hi); it++) {
            double mid = 0.5 * (lo + hi);
            if (logDelta.applyAsDouble(mid) > target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return 0.5 * (lo + hi);
    }

    // ------------------------------------------------------------------ the grid

    /** The reference grid (z, q, T, δ). */
    static List<double[]> grid() {
        List<double[]> g = new ArrayList<>();
        for (double z : new double[] {0.01, 0.02, 0.03, 0.05}) {
            for (double d : new double[] {1e-5, 1e-12}) {
                g.add(new double[] {z, 0.01, 1, d});
            }
            for (long t : new long[] {100_000, 1_000_000}) {
                for (double d : new double[] {1e-5, 1e-12}) {
                    g.add(new double[] {z, 1e-5, t, d});
                }
            }
        }
        double[][] moderate = {{0.5, 1e-4}, {0.8, 2e-3}, {1.0, 1e-3}, {2.0, 1e-2}};
        for (double[] zq : moderate) {
            for (long t : new long[] {100_000, 1_000_000}) {
                for (double d : new double[] {1e-5, 1e-8, 1e-12}) {
                    g.add(new double[] {zq[0], zq[1], t, d});
                }
            }
        }
        return g;
    }

    /** Writes the reference table: {@code java … ExactReference OUT.csv}. */
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "exact_reference.csv");
        List<String> lines = new ArrayList<>();
        lines.add("noise_multiplier,sampling_rate,steps,delta,epsilon_low,epsilon_high,method");
        for (double[] p : grid()) {
            long t0 = System.nanoTime();
            Row r = epsilon(p[0], p[1], (long) p[2], p[3]);
            lines.add(String.format(Locale.ROOT, "%s,%s,%d,%s,%.12g,%.12g,\"%s\"", fmt(r.z()), fmt(r.q()), r.t(),
                    fmt(r.delta()), r.epsilonLow(), r.epsilonHigh(), r.method()));
            System.err.printf(Locale.ROOT, "%s  (%.1f s)%n", lines.get(lines.size() - 1), (System.nanoTime() - t0) / 1e9);
        }
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
            lines.forEach(w::println);
        }
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
