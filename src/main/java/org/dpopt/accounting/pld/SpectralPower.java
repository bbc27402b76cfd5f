package org.dpopt.accounting.pld;

/**
 * The pointwise power Π_i X_i(k)^{T_i} of the factors' spectra, written into the first spectrum, in
 * polar form: |Y_k| = exp(Σ T_i log|X_i(k)|) and arg Y_k = Σ T_i arg X_i(k). Each coefficient's relative
 * error ρ (logarithms, angles, the exponential) is bounded from first principles and accumulated as an
 * ℓ2 norm ({@link #pow2}); coefficients whose modulus is below e^{−700} are flushed to 0 and counted
 * ({@link #flushed}), to be charged at 3e^{−700} each.
 */
final class SpectralPower {

    /** Σ over coefficients of (error bound)², Parseval-weighted (×2 for the complex pairs). */
    double pow2;
    /** Number of flushed coefficients (×2 for the complex pairs). */
    long flushed;
    /** ‖Y‖₂² of the computed power. */
    double ynorm2;

    private final double[][] spectra;
    private final long[] counts;
    private final double[] lms;
    private final double[] r2Min;
    private double rho;

    private SpectralPower(double[][] spectra, long[] counts, double logGrowth) {
        this.spectra = spectra;
        this.counts = counts;
        int m = spectra.length;
        this.lms = new double[m];
        // below r2Min_i a factor's power alone is under e^{−700 − logGrowth}: the product is flushed
        // without computing any logarithm or angle
        this.r2Min = new double[m];
        for (int i = 0; i < m; i++) {
            r2Min[i] = Math.exp(2 * (-700 - Math.max(0, logGrowth) - 1) / counts[i]);
        }
    }

    /** Raises and multiplies the spectra in place (the result in {@code spectra[0]}). */
    static SpectralPower apply(double[][] spectra, long[] counts, double logGrowth) {
        SpectralPower p = new SpectralPower(spectra, counts, logGrowth);
        p.run();
        return p;
    }

    private void run() {
        double[] y = spectra[0];
        int n = y.length;
        int half = n / 2;
        for (int k = 0; k <= half; k++) {
            // packed layout: k = 0 → y[0], k = n/2 → y[1], else (y[2k], y[2k+1])
            boolean real = k == 0 || k == half;
            double weight = real ? 1 : 2;
            double logmag = logModulus(k, real, half);
            if (logmag < -700) {
                flushed += real ? 1 : 2;
                setPacked(y, k, half, 0, 0);
                continue;
            }
            double ang = angle(k, real);
            double mag = Math.exp(logmag);
            double err = rho >= 0.5 ? 3 * mag : rho * mag / (1 - rho);
            pow2 += weight * err * err;
            ynorm2 += weight * mag * mag;
            setPacked(y, k, half, mag * Math.cos(ang), real ? 0 : mag * Math.sin(ang));
        }
    }

    /** Σ T_i log|X_i(k)| (the terms kept in {@link #lms}), or −∞ if some factor is below its flush level. */
    private double logModulus(int k, boolean real, int half) {
        double logmag = 0;
        for (int i = 0; i < spectra.length; i++) {
            double[] sp = spectra[i];
            double re = k == 0 ? sp[0] : k == half ? sp[1] : sp[2 * k];
            double im = real ? 0 : sp[2 * k + 1];
            double r2 = re * re + im * im;
            if (r2 < r2Min[i]) {
                return Double.NEGATIVE_INFINITY; // exact 0 or below the flush level
            }
            lms[i] = 0.5 * counts[i] * Math.log(r2);
            logmag += lms[i];
        }
        return logmag;
    }

    /** Σ T_i arg X_i(k); sets {@link #rho} to the relative error bound of the coefficient. */
    private double angle(int k, boolean real) {
        double ang = 0;
        rho = 4 * Pmf.U * spectra.length;
        for (int i = 0; i < spectra.length; i++) {
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
        return ang;
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
}
