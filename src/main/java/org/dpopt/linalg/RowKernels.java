package org.dpopt.linalg;

import java.util.Locale;

/**
 * Allocation-free dot and axpy kernels on rows stored in flat row-major arrays, shared by the in-memory
 * dataset and the batch buffers of the per-example kernels so that a row gives the same bits wherever it
 * is read from.
 *
 * <p>The summation order is part of the contract: {@link #dot} adds x_j·w_j into four accumulators
 * (j mod 4, the tail into the first) and returns (s₀ + s₁) + (s₂ + s₃); {@link #dot4} computes four rows'
 * dots side by side, each in that order (the same bits as four calls of {@link #dot}); {@link #axpy}
 * updates each entry once, and {@link #axpy4} applies four rows' updates to each entry in row order (the
 * same bits as four calls of {@link #axpy}).
 *
 * <p>Two implementations of that contract, chosen once per JVM by {@link #kernel()}: the scalar loops
 * ({@link #scalarDot}, {@link #scalarAxpy}), and the same arithmetic on 256-bit vectors of the incubating
 * Vector API, which gives the same bits and is used when the JVM was started with
 * {@code --add-modules jdk.incubator.vector} (the {@code ./dpopt} launcher adds it when the JDK has the
 * module) on hardware with 256-bit vectors. Without the module the scalar loops run, with no error and no
 * message. The system property {@value #PROPERTY} overrides the choice: {@code scalar} (or {@code false})
 * forces the scalar loops; {@code reordered} selects a vector dot with sixteen partial sums, faster but
 * not the documented order (results agree to rounding, not to the bit, so seeded runs change); any
 * other value, or none, is the default choice.
 */
public final class RowKernels {
    /** The system property that overrides the kernel choice. */
    public static final String PROPERTY = "dpopt.vector";
    private static final String MODULE = "jdk.incubator.vector";

    /** The implementations {@link #kernel()} can choose. */
    public enum Kernel {
        /** The scalar loops. */
        SCALAR,
        /** Vector API, the same bits as {@link #SCALAR}. */
        VECTOR,
        /** Vector API with a reordered dot (agrees to rounding only; opt-in). */
        VECTOR_REORDERED
    }

    private static final boolean AVAILABLE = vectorAvailable();
    private static final Kernel KERNEL = choose(System.getProperty(PROPERTY));
    private static final boolean VECTOR = KERNEL != Kernel.SCALAR;
    private static final boolean REORDERED = KERNEL == Kernel.VECTOR_REORDERED;

    private RowKernels() {
    }

    /** The kernel this JVM uses (fixed at class initialisation). */
    public static Kernel kernel() {
        return KERNEL;
    }

    /** True if the Vector API module is in the boot layer and the hardware has 256-bit vectors. */
    public static boolean vectorAvailable() {
        return ModuleLayer.boot().findModule(MODULE).isPresent() && VectorRowKernels.hardwareSupported();
    }

    static Kernel choose(String property) {
        String p = property == null ? "" : property.trim().toLowerCase(Locale.ROOT);
        if (p.equals("scalar") || p.equals("false") || !vectorAvailable()) {
            return Kernel.SCALAR;
        }
        return p.equals("reordered") ? Kernel.VECTOR_REORDERED : Kernel.VECTOR;
    }

    /** ⟨x[xo, xo + d), w[wo, wo + d)⟩ in the documented order (by the chosen kernel). Not modified: x, w. */
    public static double dot(double[] x, int xo, double[] w, int wo, int d) {
        if (VECTOR) {
            return REORDERED ? VectorRowKernels.dotReordered(x, xo, w, wo, d) : VectorRowKernels.dot(x, xo, w, wo, d);
        }
        return scalarDot(x, xo, w, wo, d);
    }

    /**
     * The dots of four rows of x (starting at o₀…o₃) with w[wo, wo + d) into res[ro], …, res[ro + 3]: each
     * exactly {@link #dot}{@code (x, o_k, w, wo, d)}, bit for bit (the same accumulators in the same order),
     * with the four rows' loads and additions interleaved so that neither the memory reads of a row nor the
     * dependency chain of its additions wait for the previous row. Modified: res. Not modified: x, w.
     */
    public static void dot4(double[] x, int o0, int o1, int o2, int o3, double[] w, int wo, int d, double[] res,
            int ro) {
        if (REORDERED) {
            for (int k = 0; k < 4; k++) {
                res[ro + k] = VectorRowKernels.dotReordered(x, k == 0 ? o0 : k == 1 ? o1 : k == 2 ? o2 : o3, w, wo, d);
            }
        } else if (VECTOR) {
            VectorRowKernels.dot4(x, o0, o1, o2, o3, w, wo, d, res, ro);
        } else {
            scalarDot4(x, o0, o1, o2, o3, w, wo, d, res, ro);
        }
    }

    /** The scalar four-row dot: four {@link #scalarDot}s side by side, the same bits. Modified: res. */
    public static void scalarDot4(double[] x, int o0, int o1, int o2, int o3, double[] w, int wo, int d,
            double[] res, int ro) {
        double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        double b0 = 0, b1 = 0, b2 = 0, b3 = 0;
        double c0 = 0, c1 = 0, c2 = 0, c3 = 0;
        double e0 = 0, e1 = 0, e2 = 0, e3 = 0;
        int j = 0;
        for (; j + 3 < d; j += 4) {
            double w0 = w[wo + j];
            double w1 = w[wo + j + 1];
            double w2 = w[wo + j + 2];
            double w3 = w[wo + j + 3];
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
            double wj = w[wo + j];
            a0 += x[o0 + j] * wj;
            b0 += x[o1 + j] * wj;
            c0 += x[o2 + j] * wj;
            e0 += x[o3 + j] * wj;
        }
        res[ro] = (a0 + a1) + (a2 + a3);
        res[ro + 1] = (b0 + b1) + (b2 + b3);
        res[ro + 2] = (c0 + c1) + (c2 + c3);
        res[ro + 3] = (e0 + e1) + (e2 + e3);
    }

    /** The vector four-row dot (same bits as {@link #scalarDot4}); throws like {@link #vectorDot}. */
    public static void vectorDot4(double[] x, int o0, int o1, int o2, int o3, double[] w, int wo, int d,
            double[] res, int ro) {
        requireVector();
        VectorRowKernels.dot4(x, o0, o1, o2, o3, w, wo, d, res, ro);
    }

    /** out[oo + j] += a·x[xo + j] for j &lt; d (by the chosen kernel). Modified: out. Not modified: x. */
    public static void axpy(double a, double[] x, int xo, double[] out, int oo, int d) {
        if (VECTOR) {
            VectorRowKernels.axpy(a, x, xo, out, oo, d);
        } else {
            scalarAxpy(a, x, xo, out, oo, d);
        }
    }

    /** The scalar dot in the documented order: the reference every kernel is tested against. */
    public static double scalarDot(double[] x, int xo, double[] w, int wo, int d) {
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
     * out[oo + j] += a₀·x[o₀ + j], then += a₁·x[o₁ + j], += a₂·x[o₂ + j], += a₃·x[o₃ + j], for j &lt; d (by the
     * chosen kernel): every entry gets the four updates of four successive {@link #axpy} calls in the same
     * order, so the same bits, but is loaded and stored once. Modified: out. Not modified: x (which must
     * not overlap out).
     */
    public static void axpy4(double a0, double a1, double a2, double a3, double[] x, int o0, int o1, int o2, int o3,
            double[] out, int oo, int d) {
        if (VECTOR) {
            VectorRowKernels.axpy4(a0, a1, a2, a3, x, o0, o1, o2, o3, out, oo, d);
        } else {
            scalarAxpy4(a0, a1, a2, a3, x, o0, o1, o2, o3, out, oo, d);
        }
    }

    /** The scalar four-row axpy (the same bits as four {@link #scalarAxpy}s in order). Modified: out. */
    public static void scalarAxpy4(double a0, double a1, double a2, double a3, double[] x, int o0, int o1, int o2,
            int o3, double[] out, int oo, int d) {
        for (int j = 0; j < d; j++) {
            double o = out[oo + j];
            o += a0 * x[o0 + j];
            o += a1 * x[o1 + j];
            o += a2 * x[o2 + j];
            o += a3 * x[o3 + j];
            out[oo + j] = o;
        }
    }

    /** The vector four-row axpy (same bits as {@link #scalarAxpy4}); throws like {@link #vectorDot}. */
    public static void vectorAxpy4(double a0, double a1, double a2, double a3, double[] x, int o0, int o1, int o2,
            int o3, double[] out, int oo, int d) {
        requireVector();
        VectorRowKernels.axpy4(a0, a1, a2, a3, x, o0, o1, o2, o3, out, oo, d);
    }

    /** The scalar axpy. Modified: out. Not modified: x. */
    public static void scalarAxpy(double a, double[] x, int xo, double[] out, int oo, int d) {
        for (int j = 0; j < d; j++) {
            out[oo + j] += a * x[xo + j];
        }
    }

    /**
     * The vector dot of the documented order (same bits as {@link #scalarDot}); for tests and benchmarks.
     *
     * @throws IllegalStateException if the Vector API is not available ({@link #vectorAvailable()})
     */
    public static double vectorDot(double[] x, int xo, double[] w, int wo, int d) {
        requireVector();
        return VectorRowKernels.dot(x, xo, w, wo, d);
    }

    /** The vector axpy (same bits as {@link #scalarAxpy}); throws like {@link #vectorDot}. */
    public static void vectorAxpy(double a, double[] x, int xo, double[] out, int oo, int d) {
        requireVector();
        VectorRowKernels.axpy(a, x, xo, out, oo, d);
    }

    /** The reordered vector dot (agrees with {@link #scalarDot} to rounding); throws like {@link #vectorDot}. */
    public static double reorderedDot(double[] x, int xo, double[] w, int wo, int d) {
        requireVector();
        return VectorRowKernels.dotReordered(x, xo, w, wo, d);
    }

    private static void requireVector() {
        if (!AVAILABLE) {
            throw new IllegalStateException("the Vector API is not available: start the JVM with --add-modules "
                    + MODULE + " (on hardware with 256-bit vectors)");
        }
    }
}
