package org.dpopt.linalg;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The dot and axpy kernels of {@link RowKernels} on the incubating Vector API ({@code jdk.incubator.vector},
 * Java 17): loaded only when that module is in the boot layer ({@link RowKernels#vectorAvailable()}), so
 * a JVM without {@code --add-modules jdk.incubator.vector} never touches this class.
 *
 * <p>{@link #dot} and {@link #axpy} are <em>bit for bit</em> the scalar kernels: the four lanes of one
 * 256-bit accumulator are exactly the scalar kernel's accumulators s₀…s₃ (lane k adds x_j·w_j for
 * j ≡ k mod 4, products and sums rounded separately, never fused), the tail is added to lane 0 in order,
 * and the result is (s₀ + s₁) + (s₂ + s₃); axpy rounds a·x_j and then out_j + a·x_j per entry, as the
 * scalar loop does. {@link #dotReordered} keeps four such accumulators (sixteen partial sums) to break the
 * dependency chain of the additions: faster, but its grouping of the additions differs, so its result
 * agrees with the scalar kernel only to rounding (opt-in).
 */
final class VectorRowKernels {
    private static final VectorSpecies<Double> S = DoubleVector.SPECIES_256;

    private VectorRowKernels() {
    }

    /** True if this JVM compiles 256-bit double vectors to machine vectors (not emulated). */
    static boolean hardwareSupported() {
        return DoubleVector.SPECIES_PREFERRED.vectorBitSize() >= 256;
    }

    /** The scalar kernel's dot, same bits. */
    static double dot(double[] x, int xo, double[] w, int wo, int d) {
        DoubleVector acc = DoubleVector.zero(S);
        int j = 0;
        for (; j + 3 < d; j += 4) {
            acc = acc.add(DoubleVector.fromArray(S, x, xo + j).mul(DoubleVector.fromArray(S, w, wo + j)));
        }
        double s0 = acc.lane(0);
        for (; j < d; j++) {
            s0 += x[xo + j] * w[wo + j];
        }
        return (s0 + acc.lane(1)) + (acc.lane(2) + acc.lane(3));
    }

    /**
     * Four rows' {@link #dot}s side by side, one accumulator per row and each w block loaded once: the
     * same bits as four calls of {@link #dot}.
     */
    static void dot4(double[] x, int o0, int o1, int o2, int o3, double[] w, int wo, int d, double[] res, int ro) {
        DoubleVector a = DoubleVector.zero(S);
        DoubleVector b = DoubleVector.zero(S);
        DoubleVector c = DoubleVector.zero(S);
        DoubleVector e = DoubleVector.zero(S);
        int j = 0;
        for (; j + 3 < d; j += 4) {
            DoubleVector wv = DoubleVector.fromArray(S, w, wo + j);
            a = a.add(DoubleVector.fromArray(S, x, o0 + j).mul(wv));
            b = b.add(DoubleVector.fromArray(S, x, o1 + j).mul(wv));
            c = c.add(DoubleVector.fromArray(S, x, o2 + j).mul(wv));
            e = e.add(DoubleVector.fromArray(S, x, o3 + j).mul(wv));
        }
        double a0 = a.lane(0);
        double b0 = b.lane(0);
        double c0 = c.lane(0);
        double e0 = e.lane(0);
        for (; j < d; j++) {
            double wj = w[wo + j];
            a0 += x[o0 + j] * wj;
            b0 += x[o1 + j] * wj;
            c0 += x[o2 + j] * wj;
            e0 += x[o3 + j] * wj;
        }
        res[ro] = (a0 + a.lane(1)) + (a.lane(2) + a.lane(3));
        res[ro + 1] = (b0 + b.lane(1)) + (b.lane(2) + b.lane(3));
        res[ro + 2] = (c0 + c.lane(1)) + (c.lane(2) + c.lane(3));
        res[ro + 3] = (e0 + e.lane(1)) + (e.lane(2) + e.lane(3));
    }

    /** The scalar kernel's axpy, same bits (x and out must not overlap). */
    static void axpy(double a, double[] x, int xo, double[] out, int oo, int d) {
        DoubleVector av = DoubleVector.broadcast(S, a);
        int j = 0;
        for (; j + 3 < d; j += 4) {
            DoubleVector o = DoubleVector.fromArray(S, out, oo + j);
            o.add(av.mul(DoubleVector.fromArray(S, x, xo + j))).intoArray(out, oo + j);
        }
        for (; j < d; j++) {
            out[oo + j] += a * x[xo + j];
        }
    }

    /** Four rows' {@link #axpy}s, each entry loaded and stored once: the same bits as four calls in order. */
    static void axpy4(double a0, double a1, double a2, double a3, double[] x, int o0, int o1, int o2, int o3,
            double[] out, int oo, int d) {
        DoubleVector v0 = DoubleVector.broadcast(S, a0);
        DoubleVector v1 = DoubleVector.broadcast(S, a1);
        DoubleVector v2 = DoubleVector.broadcast(S, a2);
        DoubleVector v3 = DoubleVector.broadcast(S, a3);
        int j = 0;
        for (; j + 3 < d; j += 4) {
            DoubleVector o = DoubleVector.fromArray(S, out, oo + j);
            o = o.add(v0.mul(DoubleVector.fromArray(S, x, o0 + j)));
            o = o.add(v1.mul(DoubleVector.fromArray(S, x, o1 + j)));
            o = o.add(v2.mul(DoubleVector.fromArray(S, x, o2 + j)));
            o = o.add(v3.mul(DoubleVector.fromArray(S, x, o3 + j)));
            o.intoArray(out, oo + j);
        }
        for (; j < d; j++) {
            double o = out[oo + j];
            o += a0 * x[o0 + j];
            o += a1 * x[o1 + j];
            o += a2 * x[o2 + j];
            o += a3 * x[o3 + j];
            out[oo + j] = o;
        }
    }

    /**
     * ⟨x, w⟩ with four 256-bit accumulators over blocks of 16 entries, then one over the remaining blocks
     * of 4, the lanes summed in a fixed order and the tail added last: the same products, a
     * different grouping of the additions.
     */
    static double dotReordered(double[] x, int xo, double[] w, int wo, int d) {
        DoubleVector a0 = DoubleVector.zero(S);
        DoubleVector a1 = DoubleVector.zero(S);
        DoubleVector a2 = DoubleVector.zero(S);
        DoubleVector a3 = DoubleVector.zero(S);
        int j = 0;
        for (; j + 15 < d; j += 16) {
            a0 = a0.add(DoubleVector.fromArray(S, x, xo + j).mul(DoubleVector.fromArray(S, w, wo + j)));
            a1 = a1.add(DoubleVector.fromArray(S, x, xo + j + 4).mul(DoubleVector.fromArray(S, w, wo + j + 4)));
            a2 = a2.add(DoubleVector.fromArray(S, x, xo + j + 8).mul(DoubleVector.fromArray(S, w, wo + j + 8)));
            a3 = a3.add(DoubleVector.fromArray(S, x, xo + j + 12).mul(DoubleVector.fromArray(S, w, wo + j + 12)));
        }
        for (; j + 3 < d; j += 4) {
            a0 = a0.add(DoubleVector.fromArray(S, x, xo + j).mul(DoubleVector.fromArray(S, w, wo + j)));
        }
        DoubleVector a = a0.add(a1).add(a2.add(a3));
        double s = (a.lane(0) + a.lane(1)) + (a.lane(2) + a.lane(3)); // a fixed order, unlike reduceLanes
        for (; j < d; j++) {
            s += x[xo + j] * w[wo + j];
        }
        return s;
    }
}
