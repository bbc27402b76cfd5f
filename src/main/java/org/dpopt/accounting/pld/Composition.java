package org.dpopt.accounting.pld;

import java.util.function.DoubleUnaryOperator;

/**
 * The composition ⊛_i μ_i^{*T_i} of elementary privacy-loss measures, evaluated lazily: δ(ε) and
 * ε(δ) are computed directly from the factors, with every numerical error charged in the safe
 * direction (upward for a pessimistic measure, downward for an optimistic one). Derivation:
 * theory-notes/accounting.md §4.
 *
 * <p>Write F for the finite part of the composition and U for its mass at +∞, so that
 * δ(ε) = U + Σ_s F(s)(1 − e^{ε−s})_+. For a tilt λ &gt; 0 let x_i = p_i e^{λl}/M̃_i (M̃_i any positive
 * number close to the MGF M_i(λ)); then exactly
 * <pre>   F(s) = Π_i M̃_i^{T_i} · e^{−λs} · (⊛_i x_i^{*T_i})(s).   </pre>
 * With λ chosen so that the tilted law has its mean at the queried ε (the saddle point), the
 * coefficients of the convolution that carry δ are the large ones, so the FFT's round-off, which is
 * small <em>relative to the largest coefficient</em>, is small relative to δ. The convolution is
 * computed on a window of the grid by one forward real FFT per factor, a pointwise power, and one
 * inverse FFT; then
 * <ul>
 *   <li>circular wrap-around only adds non-negative mass to the window's bins (an upper bound);
 *   mass beyond the window's top is charged by a Chernoff bound; bins below the window do not enter
 *   δ(ε) for ε at or above the window's bottom;</li>
 *   <li>the ℓ2 norm of the error of the computed window (forward transforms, powers, inverse
 *   transform, underflow) is bounded a posteriori from a Higham-type normwise bound on the FFT and
 *   charged through Cauchy–Schwarz with the weights e^{−λs};</li>
 *   <li>the tilted arrays' own rounding is a relative factor e^{±ξ}.</li>
 * </ul>
 */
final class Composition {

    /** Tilted tail mass beyond the window (accuracy only; every choice is sound). */
    private static final double LOG_WINDOW_TAIL = Math.log(1e-13);
    /** Smallest tilt used (δ near 1 is still bounded, with a larger error weight). */
    private static final double MIN_TILT = 1e-3;
    private static final double MAX_TILT = 1e9;
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
    private boolean emptyFinite() {
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

    /** log of λ^λ/(1+λ)^{1+λ} = max_x (1 − e^{−x}) e^{−λx}. */
    static double logChernoffConstant(double lambda) {
        return lambda * Math.log(lambda) - (1 + lambda) * Math.log1p(lambda);
    }

    // ------------------------------------------------------------------ Chernoff (no FFT) bounds

    /**
     * An upper bound on δ(ε) without any convolution: (1 − e^{ε−s})_+ ≤ c(λ)e^{λ(s−ε)} for every s
     * and λ &gt; 0, so δ(ε) ≤ U + c(λ)·Π M_i(λ)^{T_i}·e^{−λε}; minimized over λ (any λ is valid).
     */
    double chernoffDelta(double epsilon) {
        double u = infinityMass(1);
        if (emptyFinite()) {
            return u;
        }
        DoubleUnaryOperator f = lam -> logMgf(lam, 1) - lam * epsilon + logChernoffConstant(lam);
        double best = minimizeLog(f, 1e-6, MAX_TILT, 36)[1];
        return Math.min(1, u + Math.exp(best));
    }

    /** The ε of the Chernoff bound at δ (an upper bound on ε) and its minimizing λ; {+∞, NaN} if none. */
    double[] chernoffEpsilon(double delta) {
        double u = infinityMass(1);
        double rest = delta - u;
        if (!(rest > 0)) {
            return new double[] {Double.POSITIVE_INFINITY, Double.NaN};
        }
        if (emptyFinite()) {
            return new double[] {0, MIN_TILT};
        }
        double logRest = Math.log(rest);
        DoubleUnaryOperator f = lam -> (logMgf(lam, 1) + logChernoffConstant(lam) - logRest) / lam;
        double[] m = minimizeLog(f, 1e-6, MAX_TILT, 36);
        return new double[] {m[1] + 4 * Pmf.U * (Math.abs(m[1]) + 1), m[0]};
    }

    /**
     * Golden-section search for the minimum of f on [lo, hi] in log scale; returns {argmin, min} over
     * the points evaluated (the functions searched are unimodal; any point is a valid bound).
     */
    static double[] minimizeLog(DoubleUnaryOperator f, double lo, double hi, int iterations) {
        double a = Math.log(lo);
        double b = Math.log(hi);
        double g = (Math.sqrt(5) - 1) / 2;
        double c = b - g * (b - a);
        double d = a + g * (b - a);
        double fc = safe(f.applyAsDouble(Math.exp(c)));
        double fd = safe(f.applyAsDouble(Math.exp(d)));
        double bestX = fc < fd ? c : d;
        double best = Math.min(fc, fd);
        for (int it = 0; it < iterations; it++) {
            if (fc < fd) {
                b = d;
                d = c;
                fd = fc;
                c = b - g * (b - a);
                fc = safe(f.applyAsDouble(Math.exp(c)));
                if (fc < best) {
                    best = fc;
                    bestX = c;
                }
            } else {
                a = c;
                c = d;
                fc = fd;
                d = a + g * (b - a);
                fd = safe(f.applyAsDouble(Math.exp(d)));
                if (fd < best) {
                    best = fd;
                    bestX = d;
                }
            }
        }
        return new double[] {Math.exp(bestX), best};
    }

    private static double safe(double v) {
        return Double.isNaN(v) ? Double.POSITIVE_INFINITY : v;
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

    // ------------------------------------------------------------------ tilted Fourier evaluation

    /** One tilted evaluation: the computed window and the bounds that make it rigorous. */
    static final class Tilt {
        double lambda;
        /** log Π M̃_i^{T_i}. */
        double logScale;
        /** Relative rounding of the tilted arrays, summed over factors and counts (as a log). */
        double xi;
        long ka;
        double[] y;
        /** Bound on the ℓ2 norm of the error of y (tilted units), underflow included. */
        double e2;
        /** Upper bound on the tilted mass outside the window (for the optimistic mode). */
        double alias;
        /** Upper bound on the untilted finite mass above the window (for the pessimistic mode). */
        double tailAbove;
        /** log of 1/sqrt(1 − e^{−2λh}) (the ℓ2 norm of e^{−λ(s − s0)} over the grid s ≥ s0). */
        double logWeightNorm;
    }

    /**
     * Evaluates the tilted composition at λ on a window that covers the tilted law's bulk and
     * extends down to at most {@code mustCoverBelow}.
     *
     * @throws PldGridTooLargeException if the window needs more than MAX_GRID_POINTS points
     */
    Tilt evaluate(double lambda, double mustCoverBelow) {
        if (System.getProperty("dpopt.pld.trace") != null) {
            System.err.println("tilt lambda=" + lambda + " cover=" + mustCoverBelow + " mode=" + pessimistic);
        }
        Tilt t = new Tilt();
        t.lambda = lambda;
        double k0 = logMgf(lambda, 0);
        // window from tilted Chernoff bounds: y(S > b) ≤ exp(K(λ+θ) − K(λ) − θb), y(S < a) ≤ exp(K(λ−θ) − K(λ) + θa),
        // θ searched around the Gaussian optimum sqrt(2 ln(1/τ))/σ of the tilted law
        double sd = Math.sqrt(Math.max(tiltedMoments(lambda)[1], 1e-300));
        double th0 = Math.min(MAX_TILT, Math.max(1e-6, Math.sqrt(-2 * LOG_WINDOW_TAIL) / sd));
        double thLo = Math.max(1e-9, th0 / 1e3);
        double thHi = Math.max(thLo * 10, th0 * 1e3);
        double[] up = minimizeLog(th -> (logMgf(lambda + th, 0) - k0 - LOG_WINDOW_TAIL) / th, thLo, thHi, 20);
        double[] low = minimizeLog(th -> -(LOG_WINDOW_TAIL + k0 - logMgf(lambda - th, 0)) / th, thLo, thHi, 20);
        double b = up[1];
        double a = -low[1];
        if (!(a <= b)) {
            double mid = tiltedMean(lambda);
            a = mid;
            b = mid;
        }
        a = Math.min(a, mustCoverBelow);
        double minL = minLoss();
        double maxL = maxLoss();
        a = Math.max(a, minL);
        b = Math.min(b, maxL);
        a = Math.min(a, b);
        long minIndex = Math.round(minL / h);
        long maxIndex = Math.round(maxL / h);
        long ka = Math.max(minIndex, (long) Math.floor(a / h) - 1);
        long kb = Math.min(maxIndex, (long) Math.ceil(b / h) + 1);
        kb = Math.max(kb, ka);
        long width = kb - ka + 1;
        if (width > PrivacyLossDistribution.MAX_GRID_POINTS) {
            throw new PldGridTooLargeException(width);
        }
        int n = Fft.nextPowerOfTwo(Math.max(width, 16));
        double sqrtN = Math.sqrt(n);
        double beta = Fft.normwiseErrorBound(n);

        int m = pmfs.length;
        double[][] spectra = new double[m][];
        double[] dNorm = new double[m]; // bound on the ℓ2 norm of each forward transform's error
        double[] sums = new double[m]; // bound on Σ x (≥ every |X_k|)
        double xi = 0;
        double logScale = 0;
        double dropped = 0; // Σ T_i·(ℓ1 mass of entries flushed to 0)·growth, added to e2
        long offsetMod = 0;
        for (int i = 0; i < m; i++) {
            Pmf p = pmfs[i];
            double logM = p.logMgf(lambda, h, 0);
            double[] x = new double[n];
            double maxRel = 0;
            double drop = 0;
            for (int j = 0; j < p.probs.length; j++) {
                double pj = p.probs[j];
                if (!(pj > 0)) {
                    continue;
                }
                double lossTerm = lambda * ((p.offset + j) * h);
                double e = lossTerm - logM;
                double v;
                double rel;
                if (e > 700) {
                    double lp = Math.log(pj);
                    v = Math.exp(lp + e);
                    rel = Pmf.U * (3 * Math.abs(lossTerm) + 2 * Math.abs(logM) + 2 * Math.abs(lp) + 4);
                } else {
                    v = pj * Math.exp(e);
                    rel = Pmf.U * (3 * Math.abs(lossTerm) + 2 * Math.abs(logM) + 4);
                }
                if (!(v >= 1e-290) || Double.isInfinite(v)) {
                    if (Double.isInfinite(v)) {
                        throw new IllegalStateException("tilted PLD entry overflowed (internal error)");
                    }
                    drop += 1e-290;
                    continue;
                }
                maxRel = Math.max(maxRel, rel);
                x[(int) Math.floorMod(j, (long) n)] += v;
            }
            // normalize so that Σx ≈ 1 (folds the MGF's own rounding into logM); compensated sum
            double s = neumaierSum(x);
            if (!(s > 0)) {
                throw new IllegalStateException("tilted PLD has no mass (internal error)");
            }
            for (int k = 0; k < n; k++) {
                x[k] /= s;
            }
            drop /= s;
            logM += Math.log(s);
            long wraps = (p.probs.length + n - 1) / n;
            double relI = maxRel + Pmf.U * (wraps + 3) + 2 * Pmf.U * (Math.abs(logM) + 1);
            xi += counts[i] * relI;
            logScale += counts[i] * logM;
            double norm2 = 0;
            double sum = 0;
            for (double v : x) {
                norm2 += v * v;
                sum += v;
            }
            sums[i] = sum * (1 + 4 * Pmf.U * (Math.log(n) + 2)) + 1e-300;
            dropped += counts[i] * drop;
            Fft.plan(n).realForward(x);
            dNorm[i] = beta * sqrtN * Math.sqrt(norm2) * (1 + 1e-6);
            spectra[i] = x;
            offsetMod = Math.floorMod(offsetMod + Math.floorMod(counts[i], (long) n) * Math.floorMod(p.offset, (long) n),
                    (long) n);
        }
        // growth factor Π (S_i + D_i)^{T_i} of the forward errors through the powers
        double logGrowth = 0;
        double forward = 0;
        for (int i = 0; i < m; i++) {
            logGrowth += counts[i] * Math.log(sums[i] + dNorm[i] + dropped);
            forward += counts[i] * dNorm[i];
        }
        if (logGrowth > 1) {
            throw new PldGridTooLargeException("tilted FFT error bound degenerate (count too large for this grid)");
        }
        double growth = Math.exp(logGrowth);
        double[] y = spectra[0];
        // below r2Min_i a factor's power alone is under e^{−700 − logGrowth}: the product is flushed
        // without computing any logarithm or angle
        double[] r2Min = new double[m];
        for (int i = 0; i < m; i++) {
            r2Min[i] = Math.exp(2 * (-700 - Math.max(0, logGrowth) - 1) / counts[i]);
        }
        double pow2 = 0;
        long flushed = 0;
        double ynorm2 = 0;
        int half = n / 2;
        double[] lms = new double[m];
        for (int k = 0; k <= half; k++) {
            // packed layout: k = 0 → y[0], k = n/2 → y[1], else (y[2k], y[2k+1])
            boolean real = k == 0 || k == half;
            double weight = real ? 1 : 2;
            boolean zero = false;
            double logmag = 0;
            for (int i = 0; i < m && !zero; i++) {
                double[] sp = spectra[i];
                double re = k == 0 ? sp[0] : k == half ? sp[1] : sp[2 * k];
                double im = real ? 0 : sp[2 * k + 1];
                double r2 = re * re + im * im;
                if (r2 < r2Min[i]) {
                    zero = true; // exact 0 or below the flush level
                } else {
                    lms[i] = 0.5 * counts[i] * Math.log(r2);
                    logmag += lms[i];
                }
            }
            if (zero || logmag < -700) {
                flushed += real ? 1 : 2;
                setPacked(y, k, half, 0, 0);
                continue;
            }
            double ang = 0;
            double rho = 4 * Pmf.U * m;
            for (int i = 0; i < m; i++) {
                double[] sp = spectra[i];
                double tc = counts[i];
                if (real) {
                    double re = k == 0 ? sp[0] : sp[1];
                    ang += re < 0 && (counts[i] & 1L) == 1L ? Math.PI : 0;
                    rho += Pmf.U * (2 * Math.abs(lms[i]) + 1.5 * tc + 6);
                } else {
                    double ph = tc * Math.atan2(sp[2 * k + 1], sp[2 * k]);
                    ang += ph;
                    rho += Pmf.U * (2 * Math.abs(lms[i]) + 1.5 * tc + 3 * Math.abs(ph) + 8);
                }
            }
            double mag = Math.exp(logmag);
            double err = rho >= 0.5 ? 3 * mag : rho * mag / (1 - rho);
            pow2 += weight * err * err;
            ynorm2 += weight * mag * mag;
            setPacked(y, k, half, mag * Math.cos(ang), real ? 0 : mag * Math.sin(ang));
        }
        // each flushed coefficient had modulus below e^{−700}·(1 + ρ) ≤ 3e^{−700} (charged below)
        Fft.plan(n).realInverse(y, true);
        double yNorm = Math.sqrt(ynorm2) * (1 + 1e-6);
        double spectralError = growth * forward + Math.sqrt(pow2) + Math.sqrt((double) flushed) * 3 * Math.exp(-700)
                + beta * yNorm;
        double e2 = spectralError / sqrtN * (1 + 1e-6) + n * Double.MIN_VALUE + growth * dropped;
        if (System.getProperty("dpopt.pld.trace") != null) {
            System.err.println("  window [" + ka * h + ", " + kb * h + "] N=" + n + " e2=" + e2);
        }
        double[] win = new double[(int) width];
        for (int w = 0; w < width; w++) {
            win[w] = y[(int) Math.floorMod(ka + w - offsetMod, (long) n)];
        }
        t.logScale = logScale;
        t.xi = xi * (1 + 1e-6);
        t.ka = ka;
        t.y = win;
        t.e2 = e2;
        t.logWeightNorm = -0.5 * Math.log(-Math.expm1(-2 * lambda * h));
        double topLoss = kb * h;
        double bottomLoss = ka * h;
        if (pessimistic) {
            t.tailAbove = kb >= maxIndex ? 0 : tailAbove(topLoss, lambda + up[0], lambda);
        } else {
            // tilted mass of x outside the window (exact MGF of x: Π (M(λ±θ)/M̃(λ))^{T}), both sides
            double above = kb >= maxIndex ? 0 : Math.exp(logMgf(lambda + up[0], 1) - logScale - up[0] * topLoss);
            double below = ka <= minIndex ? 0 : Math.exp(logMgf(lambda - low[0], 1) - logScale + low[0] * bottomLoss);
            t.alias = Math.min(1e300, above + below) * (1 + 1e-9);
        }
        return t;
    }

    private static void setPacked(double[] y, int k, int half, double re, double im) {
        if (k == 0) {
            y[0] = re;
        } else if (k == half) {
            y[1] = re;
        } else {
            y[2 * k] = re;
            y[2 * k + 1] = im;
        }
    }

    /** An upper bound on F(S &gt; top) = min over the given θ's of Π M_i(θ)^{T_i} e^{−θ·top}. */
    private double tailAbove(double top, double... thetas) {
        double best = Double.POSITIVE_INFINITY;
        for (double th : thetas) {
            if (th > 0) {
                best = Math.min(best, logMgf(th, 1) - th * top);
            }
        }
        double center = thetas.length > 0 && thetas[0] > 0 ? thetas[0] : 1;
        double[] m = minimizeLog(th -> logMgf(th, 1) - th * top, Math.max(1e-9, center / 10), center * 10, 16);
        best = Math.min(best, m[1]);
        return Math.min(1, Math.exp(best));
    }

    static double neumaierSum(double[] v) {
        double s = 0;
        double c = 0;
        for (double x : v) {
            double t = s + x;
            if (Math.abs(s) >= Math.abs(x)) {
                c += (s - t) + x;
            } else {
                c += (x - t) + s;
            }
            s = t;
        }
        return s + c;
    }

    /**
     * Bound on the window's bin k (grid index ka + w) in untilted units: pessimistic
     * C e^{ξ} e^{−λl}·max(ỹ, 0) rounded up (capped at 1); optimistic C e^{−ξ} e^{−λl}·max(ỹ, 0) rounded
     * down.
     */
    private static double bin(Tilt t, int w, double h, boolean up) {
        double v = t.y[w];
        if (!(v > 0)) {
            return 0;
        }
        double loss = (t.ka + w) * h;
        double ex = t.logScale + (up ? t.xi : -t.xi) - t.lambda * loss;
        double rel = Pmf.U * (3 * Math.abs(ex) + 3 * Math.abs(t.lambda * loss) + 6);
        double lv = ex + Math.log(v);
        if (lv > 0) {
            return up ? 1 : Math.exp(ex) * v * (1 - rel);
        }
        double f = Math.exp(lv);
        return up ? f * (1 + rel) : f * (1 - rel);
    }

    /** The ℓ2 error charge for bins from grid index k up: C e^{±ξ} e2 e^{−λ l_k} / sqrt(1 − e^{−2λh}) (capped). */
    private static double errorCharge(Tilt t, long k, double h, boolean up, double factor) {
        double l = t.logScale + (up ? t.xi : -t.xi) + Math.log(factor * t.e2) - t.lambda * (k * h) + t.logWeightNorm;
        l += 4 * Pmf.U * (Math.abs(l) + Math.abs(t.lambda * k * h) + 2);
        return l > 0 ? Double.POSITIVE_INFINITY : Math.exp(l);
    }

    /** Upper bound on δ(ε) from one pessimistic tilt; +∞ if the window does not reach down to ε. */
    double deltaUpper(Tilt t, double epsilon) {
        double u = infinityMass(1);
        long first = (long) Math.floor(epsilon / h) + 1; // first grid index with loss > ε (up to rounding)
        while ((first - 1) * h > epsilon) {
            first--;
        }
        while (first * h <= epsilon) {
            first++;
        }
        if (first < t.ka) {
            return Double.POSITIVE_INFINITY;
        }
        double acc = 0;
        int w0 = (int) Math.min(t.y.length, first - t.ka);
        for (int w = w0; w < t.y.length; w++) {
            double loss = (t.ka + w) * h;
            acc += bin(t, w, h, true) * -Math.expm1(epsilon - loss);
        }
        acc *= 1 + 4 * Pmf.U * (t.y.length + 4);
        double err = errorCharge(t, first, h, true, 1);
        return Math.min(1, u + t.tailAbove + acc + err);
    }

    /** Lower bound on δ(ε) from one optimistic tilt (at least 0). */
    double deltaLower(Tilt t, double epsilon) {
        double u = infinityMass(-1);
        long first = (long) Math.floor(epsilon / h) + 1;
        while ((first - 1) * h > epsilon) {
            first--;
        }
        while (first * h <= epsilon) {
            first++;
        }
        double acc = 0;
        int w0 = (int) Math.max(0, Math.min(t.y.length, first - t.ka));
        for (int w = w0; w < t.y.length; w++) {
            double loss = (t.ka + w) * h;
            acc += bin(t, w, h, false) * -Math.expm1(epsilon - loss);
        }
        acc *= 1 - 4 * Pmf.U * (t.y.length + 4);
        long k0 = Math.max(first, t.ka);
        double err = errorCharge(t, k0, h, true, 2) + aliasCharge(t, epsilon);
        return Math.max(0, u + acc - err);
    }

    /** C e^{ξ}·A·c(λ)·e^{−λε}: the most that aliased tilted mass A can add to δ(ε). */
    private static double aliasCharge(Tilt t, double epsilon) {
        if (t.alias == 0) {
            return 0;
        }
        double l = t.logScale + t.xi + t.xi + Math.log(t.alias) + logChernoffConstant(t.lambda) - t.lambda * epsilon;
        l += 4 * Pmf.U * (Math.abs(l) + Math.abs(t.lambda * epsilon) + 2);
        return l > 0 ? Double.POSITIVE_INFINITY : Math.exp(l);
    }

    /**
     * From one pessimistic tilt: the smallest ε ≥ l_ka − h with δ_upper(ε) ≤ δ, scanning the window
     * from the top (on [l_{k−1}, l_k) the bound is A_k + C − e^{ε−l_k}B_k, solved in closed form);
     * {@code out[1]} is the share of the bound at the answer made of error charges.
     */
    double[] epsilonUpper(Tilt t, double delta) {
        return scan(t, delta, true);
    }

    /**
     * From one optimistic tilt: sup{ε : δ_lower(ε) &gt; δ} over the window (a valid lower bound on the
     * ε of the measure), or 0 if δ_lower never exceeds δ there.
     */
    double epsilonLower(Tilt t, double delta) {
        return scan(t, delta, false)[0];
    }

    /**
     * The segment scan shared by both modes. Upper: A rounded up, B down, charges added; lower: A down,
     * B up, charges subtracted (on each segment at their values at its left end, their largest).
     */
    private double[] scan(Tilt t, double delta, boolean up) {
        double base = up ? infinityMass(1) + t.tailAbove : infinityMass(-1);
        if (base > delta) {
            return new double[] {Double.POSITIVE_INFINITY, 1};
        }
        int len = t.y.length;
        double eh = Math.exp(-h);
        double stepUp = Math.exp(t.lambda * h); // g_{k−1} = g_k·e^{λh}
        double sx = up ? t.xi : -t.xi;
        // g_k = exp(logScale ± ξ − λ l_k), by a geometric recurrence resynchronized every SYNC bins; the
        // relative error of g (exp's argument rounding, at most SYNC multiplications) is covered by rel
        final int sync = 256;
        double maxArg = Math.max(Math.abs(t.logScale + sx - t.lambda * (t.ka * h)),
                Math.abs(t.logScale + sx - t.lambda * ((t.ka + len - 1) * h)));
        double maxLam = t.lambda * Math.max(Math.abs(t.ka * h), Math.abs((t.ka + len - 1) * h));
        double rel = Pmf.U * (3 * maxArg + 3 * maxLam + 2.0 * sync + 8);
        double gUp = up ? 1 + rel : 1 - rel; // the direction bins are rounded in
        double gErr = 1 + rel; // charges are always rounded up
        // charges per unit g: the ℓ2 error (·2 in the lower mode, for the clamped negatives) and, lower
        // mode only, the aliased mass at the segment's left end (its largest value on the segment)
        double errPerG = (up ? 1 : 2) * t.e2 * Math.exp(t.logWeightNorm + (up ? 0 : 2 * t.xi)) * gErr;
        double aliasPerG = up || t.alias == 0 ? 0
                : t.alias * Math.exp(logChernoffConstant(t.lambda) + 2 * t.xi) * stepUp * gErr;
        double a = 0;
        double b = 0;
        double slack = 4 * Pmf.U * (len + 4);
        double g = 0;
        for (int w = len - 1; w >= 0; w--) {
            long k = t.ka + w;
            double lk = k * h;
            g = (len - 1 - w) % sync == 0 ? Math.exp(t.logScale + sx - t.lambda * lk) : g * stepUp;
            double v = t.y[w];
            double f = v > 0 ? v * g * gUp : 0;
            if (up && f > 1) {
                f = 1; // a bin's mass is at most 1
            }
            if (!(f >= 0)) {
                f = up ? 1 : 0; // g overflowed: no information in this bin
            }
            a += f;
            b = up ? b * eh * (1 - 2 * Pmf.U) + f * (1 - 4 * Pmf.U) : b * eh + f;
            double err = g * (errPerG + aliasPerG);
            if (Double.isNaN(err)) {
                err = Double.POSITIVE_INFINITY;
            }
            double aS = up ? a * (1 + slack) : a * (1 - slack);
            double bS = up ? b * (1 - slack) : b * (1 + slack);
            double c = base + aS + (up ? err : -err);
            if (c - eh * bS > delta) {
                double eps = bS > 0 ? lk + Math.log((c - delta) / bS) : lk;
                eps = Math.max(Math.min(eps, lk), lk - h);
                eps += (up ? 4 : -4) * Pmf.U * (Math.abs(eps) + 1);
                return new double[] {up ? eps : Math.max(0, eps), (err + t.tailAbove) / delta};
            }
        }
        return new double[] {up ? t.ka * h - h : 0, 1};
    }

    // ------------------------------------------------------------------ queries

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
            return Math.min(chernoffDelta(epsilon), deltaUpper(t, epsilon));
        }
        return Math.min(1, Math.max(infinityMass(-1), deltaLower(t, epsilon)));
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
        if (pessimistic) {
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
                    r = epsilonUpper(evaluate(lambda, Double.POSITIVE_INFINITY), delta);
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
                e = epsilonLower(evaluate(lambda, guess), delta);
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
