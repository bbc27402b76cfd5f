package org.dpopt.accounting.pld;

/**
 * The tilted Fourier evaluation of a composition ⊛_i μ_i^{*T_i} at one tilt λ &gt; 0.
 *
 * <p>Let x_i = p_i e^{λl}/M̃_i (M̃_i a positive number close to the MGF M_i(λ), so that Σ x_i ≈ 1).
 * Then exactly F(s) = Π_i M̃_i^{T_i} · e^{−λs} · (⊛_i x_i^{*T_i})(s). The convolution is computed on a
 * window of the grid by one forward real FFT per factor, a pointwise power of the spectra, and one
 * inverse FFT (the approach of Koskela, Jälkö and Honkela, "Computing Tight Differential Privacy
 * Guarantees Using FFT", AISTATS 2020, here on a tilted and windowed law). With λ at the saddle point
 * the coefficients that carry δ are the large ones, so the FFT's round-off, small <em>relative to the
 * largest coefficient</em>, is small relative to δ. The rigorous error terms computed here:
 * <ul>
 *   <li>circular wrap-around only adds non-negative mass to the window's bins (an upper bound); mass
 *   beyond the window is bounded by Chernoff bounds of the tilted law;</li>
 *   <li>the ℓ2 norm e2 of the error of the computed window (forward transforms, powers, inverse
 *   transform, underflow), from the normwise FFT error bound of Higham ("Accuracy and Stability of
 *   Numerical Algorithms", 2nd ed., SIAM 2002, Thm. 24.2) propagated through the powers;</li>
 *   <li>the tilted arrays' own rounding, a relative factor e^{±ξ}.</li>
 * </ul>
 */
final class TiltedFft {

    /** Tilted tail mass beyond the window (accuracy only; every choice is sound). */
    private static final double LOG_WINDOW_TAIL = Math.log(1e-13);

    private final Composition c;
    private final double lambda;
    private final double h;

    private TiltedFft(Composition c, double lambda) {
        this.c = c;
        this.lambda = lambda;
        this.h = c.h;
    }

    /**
     * Evaluates the tilted composition at λ on a window that covers the tilted law's bulk and extends
     * down to at most {@code mustCoverBelow}.
     *
     * @throws PldGridTooLargeException if the window needs more than MAX_GRID_POINTS points
     */
    static Tilt evaluate(Composition c, double lambda, double mustCoverBelow) {
        if (System.getProperty("dpopt.pld.trace") != null) {
            System.err.println("tilt lambda=" + lambda + " cover=" + mustCoverBelow + " mode=" + c.pessimistic);
        }
        return new TiltedFft(c, lambda).run(mustCoverBelow);
    }

    /** The window [ka, kb] of grid indices, the loss range's ends, and the tilts that bound the tails. */
    private record Window(long ka, long kb, long minIndex, long maxIndex, double thetaUp, double thetaLow) {
        long width() {
            return kb - ka + 1;
        }
    }

    /**
     * The window from tilted Chernoff bounds: y(S &gt; b) ≤ exp(K(λ+θ) − K(λ) − θb) and
     * y(S &lt; a) ≤ exp(K(λ−θ) − K(λ) + θa), θ searched around the Gaussian optimum sqrt(2 ln(1/τ))/σ of
     * the tilted law.
     */
    private Window window(double mustCoverBelow) {
        double k0 = c.logMgf(lambda, 0);
        double sd = Math.sqrt(Math.max(c.tiltedMoments(lambda)[1], 1e-300));
        double th0 = Math.min(Composition.MAX_TILT, Math.max(1e-6, Math.sqrt(-2 * LOG_WINDOW_TAIL) / sd));
        double thLo = Math.max(1e-9, th0 / 1e3);
        double thHi = Math.max(thLo * 10, th0 * 1e3);
        double[] up = LogScaleSearch.minimizeLog(th -> (c.logMgf(lambda + th, 0) - k0 - LOG_WINDOW_TAIL) / th,
                thLo, thHi, 20);
        double[] low = LogScaleSearch.minimizeLog(th -> -(LOG_WINDOW_TAIL + k0 - c.logMgf(lambda - th, 0)) / th,
                thLo, thHi, 20);
        double b = up[1];
        double a = -low[1];
        if (!(a <= b)) {
            double mid = c.tiltedMean(lambda);
            a = mid;
            b = mid;
        }
        a = Math.min(a, mustCoverBelow);
        double minL = c.minLoss();
        double maxL = c.maxLoss();
        a = Math.max(a, minL);
        b = Math.min(b, maxL);
        a = Math.min(a, b);
        long minIndex = Math.round(minL / h);
        long maxIndex = Math.round(maxL / h);
        long ka = Math.max(minIndex, (long) Math.floor(a / h) - 1);
        long kb = Math.min(maxIndex, (long) Math.ceil(b / h) + 1);
        kb = Math.max(kb, ka);
        return new Window(ka, kb, minIndex, maxIndex, up[0], low[0]);
    }

    private Tilt run(double mustCoverBelow) {
        Window win = window(mustCoverBelow);
        long width = win.width();
        if (width > PrivacyLossDistribution.MAX_GRID_POINTS) {
            throw new PldGridTooLargeException(width);
        }
        int n = Fft.nextPowerOfTwo(Math.max(width, 16));
        double sqrtN = Math.sqrt(n);
        double beta = Fft.normwiseErrorBound(n);
        TiltedSpectra s = TiltedSpectra.of(c, lambda, n, beta);
        // growth factor Π (S_i + D_i)^{T_i} of the forward errors through the powers
        double logGrowth = 0;
        double forward = 0;
        for (int i = 0; i < s.spectra.length; i++) {
            logGrowth += c.counts[i] * Math.log(s.sums[i] + s.dNorm[i] + s.dropped);
            forward += c.counts[i] * s.dNorm[i];
        }
        if (logGrowth > 1) {
            throw new PldGridTooLargeException("tilted FFT error bound degenerate (count too large for this grid)");
        }
        double growth = Math.exp(logGrowth);
        SpectralPower pw = SpectralPower.apply(s.spectra, c.counts, logGrowth);
        double[] y = s.spectra[0];
        // each flushed coefficient had modulus below e^{−700}·(1 + ρ) ≤ 3e^{−700} (charged below)
        Fft.plan(n).realInverse(y, true);
        double yNorm = Math.sqrt(pw.ynorm2) * (1 + 1e-6);
        double spectralError = growth * forward + Math.sqrt(pw.pow2) + Math.sqrt((double) pw.flushed) * 3 * Math.exp(-700)
                + beta * yNorm;
        double e2 = spectralError / sqrtN * (1 + 1e-6) + n * Double.MIN_VALUE + growth * s.dropped;
        if (System.getProperty("dpopt.pld.trace") != null) {
            System.err.println("  window [" + win.ka() * h + ", " + win.kb() * h + "] N=" + n + " e2=" + e2);
        }
        double[] cut = new double[(int) width];
        for (int w = 0; w < width; w++) {
            cut[w] = y[(int) Math.floorMod(win.ka() + w - s.offsetMod, (long) n)];
        }
        Tilt t = new Tilt();
        t.lambda = lambda;
        t.logScale = s.logScale;
        t.xi = s.xi * (1 + 1e-6);
        t.ka = win.ka();
        t.y = cut;
        t.e2 = e2;
        t.logWeightNorm = -0.5 * Math.log(-Math.expm1(-2 * lambda * h));
        outside(t, win);
        return t;
    }

    /** The bounds on the mass outside the window, per the mode. */
    private void outside(Tilt t, Window win) {
        double topLoss = win.kb() * h;
        double bottomLoss = win.ka() * h;
        if (c.pessimistic) {
            t.tailAbove = win.kb() >= win.maxIndex() ? 0 : tailAbove(topLoss, lambda + win.thetaUp(), lambda);
        } else {
            // tilted mass of x outside the window (exact MGF of x: Π (M(λ±θ)/M̃(λ))^{T}), both sides
            double above = win.kb() >= win.maxIndex() ? 0
                    : Math.exp(c.logMgf(lambda + win.thetaUp(), 1) - t.logScale - win.thetaUp() * topLoss);
            double below = win.ka() <= win.minIndex() ? 0
                    : Math.exp(c.logMgf(lambda - win.thetaLow(), 1) - t.logScale + win.thetaLow() * bottomLoss);
            t.alias = Math.min(1e300, above + below) * (1 + 1e-9);
        }
    }

    /** An upper bound on F(S &gt; top) = min over the given θ's of Π M_i(θ)^{T_i} e^{−θ·top}. */
    private double tailAbove(double top, double... thetas) {
        double best = Double.POSITIVE_INFINITY;
        for (double th : thetas) {
            if (th > 0) {
                best = Math.min(best, c.logMgf(th, 1) - th * top);
            }
        }
        double center = thetas.length > 0 && thetas[0] > 0 ? thetas[0] : 1;
        double[] m = LogScaleSearch.minimizeLog(th -> c.logMgf(th, 1) - th * top, Math.max(1e-9, center / 10),
                center * 10, 16);
        best = Math.min(best, m[1]);
        return Math.min(1, Math.exp(best));
    }
}
