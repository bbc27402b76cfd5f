package org.dpopt.linalg;

/**
 * Allocation-free dot and axpy kernels on rows stored in flat row-major arrays, shared by the in-memory
 * dataset and the batch buffers of the per-example kernels so that a row gives the same bits wherever it
 * is read from.
 *
 * <p>The summation order is part of the contract: {@link #dot} adds x_j·w_j into four accumulators
 * (j mod 4, the tail into the first) and returns (s₀ + s₁) + (s₂ + s₃); {@link #dot4} computes four such
 * dots side by side (more independent work per loop step, the same bits as four calls); {@link #axpy4}
 * adds four scaled rows element by element in the order a₀x₀, a₁x₁, a₂x₂, a₃x₃, which is bit for bit four
 * {@link #axpy} calls in sequence while reading and writing {@code out} once.
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

    /**
     * The four dots ⟨x[o_k, o_k + d), w[0, d)⟩, k = 0..3, into out[0..4): each bit for bit {@link #dot}.
     * Modified: out. Not modified: x, w.
     */
    public static void dot4(double[] x, int o0, int o1, int o2, int o3, double[] w, int d, double[] out) {
        double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        double b0 = 0, b1 = 0, b2 = 0, b3 = 0;
        double c0 = 0, c1 = 0, c2 = 0, c3 = 0;
        double e0 = 0, e1 = 0, e2 = 0, e3 = 0;
        int j = 0;
        for (; j + 3 < d; j += 4) {
            double w0 = w[j];
            double w1 = w[j + 1];
            double w2 = w[j + 2];
            double w3 = w[j + 3];
            a0 += x[o0 + j] * w0;
            a1 += x[o0 + j + 1] * w1;
            a2 += x[o0 + j + 2] * w2;
            a3 += x[o0 + j + 3] * w3;
            b0 += x[o1 + j] * w0;
            b1 += x[o1 + j + 1] * w1;
            b2 += x[o1 + j + 2] * w2;
            b3 += x[o1 + j + 3] * w3;
            c0 += x[o2 + j] * w0;
            c1 += x[o2 + j + 1] * w1;
            c2 += x[o2 + j + 2] * w2;
            c3 += x[o2 + j + 3] * w3;
            e0 += x[o3 + j] * w0;
            e1 += x[o3 + j + 1] * w1;
            e2 += x[o3 + j + 2] * w2;
            e3 += x[o3 + j + 3] * w3;
        }
        for (; j < d; j++) {
            a0 += x[o0 + j] * w[j];
            b0 += x[o1 + j] * w[j];
            c0 += x[o2 + j] * w[j];
            e0 += x[o3 + j] * w[j];
        }
        out[0] = (a0 + a1) + (a2 + a3);
        out[1] = (b0 + b1) + (b2 + b3);
        out[2] = (c0 + c1) + (c2 + c3);
        out[3] = (e0 + e1) + (e2 + e3);
    }

    /** out[oo + j] += a·x[xo + j] for j &lt; d. Modified: out. Not modified: x. */
    public static void axpy(double a, double[] x, int xo, double[] out, int oo, int d) {
        for (int j = 0; j < d; j++) {
            out[oo + j] += a * x[xo + j];
        }
    }

    /**
     * out[j] ← (((out[j] + a₀x[o₀+j]) + a₁x[o₁+j]) + a₂x[o₂+j]) + a₃x[o₃+j] for j &lt; d: four
     * {@link #axpy} calls in sequence, bit for bit. Modified: out. Not modified: x.
     */
    public static void axpy4(double a0, double a1, double a2, double a3, double[] x, int o0, int o1, int o2,
            int o3, double[] out, int d) {
        for (int j = 0; j < d; j++) {
            double s = out[j] + a0 * x[o0 + j];
            s += a1 * x[o1 + j];
            s += a2 * x[o2 + j];
            out[j] = s + a3 * x[o3 + j];
        }
    }
}
