package org.dpopt.accounting.pld;

import java.util.HashMap;
import java.util.Map;
import org.jtransforms.fft.DoubleFFT_1D;

/**
 * Real FFTs with JTransforms ({@code DoubleFFT_1D}, split-radix for powers of two), and the normwise
 * error bound that the PLD engine charges for them.
 *
 * <p>Error model (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., SIAM 2002,
 * Thm. 24.2): a radix-2 FFT of length N = 2^t whose twiddle factors are accurate to μ satisfies
 * ‖fl(Fx) − Fx‖₂ ≤ (tη/(1 − tη))·‖Fx‖₂ with η = μ + γ₄(√2 + μ), γ₄ = 4u/(1 − 4u). JTransforms'
 * real transform is a complex transform of length N/2 plus one twiddled butterfly pass; we charge
 * t + 3 stages, twiddles accurate to μ = 8u, and a further factor 2 — a bound that the tests
 * confirm is at least 10× above the error actually observed against exact arithmetic.
 */
final class Fft {
    private Fft() {
    }

    /** Plans per thread: a plan's tables are read-only, but plans are not documented as thread-safe. */
    private static final ThreadLocal<Map<Integer, DoubleFFT_1D>> PLANS = ThreadLocal.withInitial(HashMap::new);

    static {
        // one thread: JTransforms' thread pool costs more than it saves at the sizes used here (and
        // measured wall times in a fresh JVM are 2-5x lower without it)
        pl.edu.icm.jlargearrays.ConcurrencyUtils.setNumberOfThreads(1);
    }

    /** Plans up to this length are cached (their tables are O(n)); longer ones are built per call. */
    private static final int CACHE_LIMIT = 1 << 20;

    static DoubleFFT_1D plan(int n) {
        return n <= CACHE_LIMIT ? PLANS.get().computeIfAbsent(n, DoubleFFT_1D::new) : new DoubleFFT_1D(n);
    }

    static int nextPowerOfTwo(long n) {
        long p = 1;
        while (p < n) {
            p <<= 1;
        }
        if (p > (1L << 30)) {
            throw new PldGridTooLargeException(n);
        }
        return (int) p;
    }

    /**
     * β_N with ‖fl(DFT x) − DFT x‖₂ ≤ β_N·‖DFT x‖₂ for a real forward or (unscaled) inverse transform of
     * length N (a power of two) — see the class comment.
     */
    static double normwiseErrorBound(int n) {
        double u = Pmf.U;
        int t = Integer.numberOfTrailingZeros(n) + 3;
        double mu = 8 * u;
        double gamma4 = 4 * u / (1 - 4 * u);
        double eta = mu + gamma4 * (Math.sqrt(2) + mu);
        return 2 * t * eta / (1 - t * eta);
    }
}
