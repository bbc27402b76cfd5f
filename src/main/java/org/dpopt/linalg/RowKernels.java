package org.dpopt.linalg;

/**
 * Allocation-free dot and axpy kernels on rows stored in flat row-major arrays, shared by the in-memory
 * dataset and the batch buffers of the per-example kernels so that a row gives the same bits wherever it
 * is read from.
 *
 * <p>The summation order is part of the contract: {@link #dot} adds x_j·w_j into four accumulators
 * (j mod 4, the tail into the first) and returns (s₀ + s₁) + (s₂ + s₃); {@link #axpy} updates each entry
 * once.
 */
public final class RowKernels {
    private RowKernels() {
    }

    /** ⟨x[xo, xo + d), w[wo, wo + d)⟩ in the documented order. Not modified: x, w. */
    public static double dot(double[] x, int xo, double[] w, int wo, int d) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int j = 0;
        for (; j + 3 < d; j += 4) {
            s0 += x[xo + j] * w[wo + j];
            s1 += x[xo + j + 1] * w[wo + j + 1];
            s2 += x[xo + j + 2] * w[wo + j + 2];
            s3 += x[xo + j + 3] * w[wo + j + 3];
        }
        for (; j < d; j++) {
            s0 += x[xo + j] * w[wo + j];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /** out[oo + j] += a·x[xo + j] for j &lt; d. Modified: out. Not modified: x. */
    public static void axpy(double a, double[] x, int xo, double[] out, int oo, int d) {
        for (int j = 0; j < d; j++) {
            out[oo + j] += a * x[xo + j];
        }
    }
}
