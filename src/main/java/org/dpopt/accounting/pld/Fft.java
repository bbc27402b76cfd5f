package org.dpopt.accounting.pld;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jtransforms.fft.DoubleFFT_1D;

/**
 * Real FFT convolutions with JTransforms ({@code DoubleFFT_1D}: in-place real-to-complex transforms
 * of any length, split-radix for powers of two). Chosen over Commons Math's
 * {@code FastFourierTransformer}, which works on boxed {@code Complex} objects and allocates per
 * element: JTransforms is several times faster and allocation-free apart from the work array.
 */
final class Fft {
    private Fft() {
    }

    private static final Map<Integer, DoubleFFT_1D> PLANS = new ConcurrentHashMap<>();

    /** Below this product of lengths the direct O(n·m) sum is used. */
    private static final long DIRECT_LIMIT = 1L << 18;

    /** Plans up to this length are cached (their tables are O(n)); longer ones are built per call. */
    private static final int CACHE_LIMIT = 1 << 20;

    static DoubleFFT_1D plan(int n) {
        return n <= CACHE_LIMIT ? PLANS.computeIfAbsent(n, DoubleFFT_1D::new) : new DoubleFFT_1D(n);
    }

    static int nextPowerOfTwo(long n) {
        long p = 1;
        while (p < n) {
            p <<= 1;
        }
        if (p > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("FFT length must be at most 2^30 but was " + n);
        }
        return (int) p;
    }

    /** The linear convolution of a and b (length a.length + b.length − 1). */
    static double[] convolve(double[] a, double[] b) {
        int m = a.length + b.length - 1;
        if ((long) a.length * b.length <= DIRECT_LIMIT || Math.min(a.length, b.length) <= 16) {
            double[] out = new double[m];
            for (int i = 0; i < a.length; i++) {
                double ai = a[i];
                if (ai == 0) {
                    continue;
                }
                for (int j = 0; j < b.length; j++) {
                    out[i + j] += ai * b[j];
                }
            }
            return out;
        }
        int n = nextPowerOfTwo(m);
        double[] x = new double[n];
        double[] y = new double[n];
        System.arraycopy(a, 0, x, 0, a.length);
        System.arraycopy(b, 0, y, 0, b.length);
        DoubleFFT_1D fft = plan(n);
        fft.realForward(x);
        fft.realForward(y);
        x[0] *= y[0];
        x[1] *= y[1];
        for (int k = 2; k < n; k += 2) {
            double re = x[k] * y[k] - x[k + 1] * y[k + 1];
            double im = x[k] * y[k + 1] + x[k + 1] * y[k];
            x[k] = re;
            x[k + 1] = im;
        }
        fft.realInverse(x, true);
        double[] out = new double[m];
        System.arraycopy(x, 0, out, 0, m);
        return out;
    }

    /**
     * The {@code count}-fold circular self-convolution of a (zero-padded to length n, a power of two)
     * modulo n: forward transform, pointwise power, inverse transform.
     */
    static double[] circularSelfConvolve(double[] a, int n, long count) {
        double[] x = new double[n];
        System.arraycopy(a, 0, x, 0, a.length);
        DoubleFFT_1D fft = plan(n);
        fft.realForward(x);
        x[0] = realPower(x[0], count);
        x[1] = realPower(x[1], count);
        double halfT = 0.5 * count;
        // |z|^T underflows (below e^{-745}) for most high frequencies of a wide distribution
        double r2Min = Math.exp(-1490.0 / count);
        for (int k = 2; k < n; k += 2) {
            double re = x[k];
            double im = x[k + 1];
            double r2 = re * re + im * im;
            if (r2 < r2Min) {
                x[k] = 0;
                x[k + 1] = 0;
                continue;
            }
            double logMag = halfT * Math.log(r2);
            if (logMag < -745) {
                x[k] = 0;
                x[k + 1] = 0;
                continue;
            }
            double mag = Math.exp(logMag);
            double ang = count * Math.atan2(im, re);
            x[k] = mag * Math.cos(ang);
            x[k + 1] = mag * Math.sin(ang);
        }
        fft.realInverse(x, true);
        return x;
    }

    private static double realPower(double v, long count) {
        double p = Math.exp(count * Math.log(Math.abs(v)));
        return v < 0 && (count & 1L) == 1L ? -p : p;
    }
}
