package org.dpopt.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.noise.Rngs;
import org.junit.jupiter.api.Test;

/**
 * The vector kernels give the scalar kernels' bits (dot and axpy, every length 0…40 and 100, 108, 257,
 * arbitrary offsets, entries of mixed signs and magnitudes 2⁻⁶⁰…2⁶⁰ so that additions cancel and round);
 * the four-row dots and axpys (scalar, vector and the chosen one) give each row's one-row dot, and four
 * successive axpys, to the bit;
 * the reordered dot agrees to its rounding bound; the choice follows the system property; and a JVM
 * without the Vector API module runs the scalar kernel and prints nothing else. The test JVM has the
 * module (the build adds it); deterministic (fixed seeds).
 */
class RowKernelsTest {
    private static final int[] LENGTHS = lengths();

    private static int[] lengths() {
        int[] d = new int[44];
        for (int k = 0; k <= 40; k++) {
            d[k] = k;
        }
        d[41] = 100;
        d[42] = 108;
        d[43] = 257;
        return d;
    }

    private static double entry(UniformRandomProvider rng) {
        double m = Math.scalb(1.0 + rng.nextDouble(), rng.nextInt(121) - 60);
        return rng.nextBoolean() ? m : -m;
    }

    private static double[] array(int len, UniformRandomProvider rng) {
        double[] a = new double[len];
        for (int i = 0; i < len; i++) {
            a[i] = entry(rng);
        }
        return a;
    }

    @Test
    void theTestJvmHasTheVectorModule() {
        assertTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent(),
                "the build must run the tests with --add-modules jdk.incubator.vector");
        assertEquals(VectorRowKernels.hardwareSupported() ? RowKernels.Kernel.VECTOR : RowKernels.Kernel.SCALAR,
                RowKernels.kernel());
    }

    @Test
    void vectorDotAndAxpyGiveTheScalarBits() {
        UniformRandomProvider rng = Rngs.seeded(17);
        for (int d : LENGTHS) {
            for (int rep = 0; rep < 30; rep++) {
                int xo = rng.nextInt(5);
                int wo = rng.nextInt(5);
                double[] x = array(xo + d + rng.nextInt(3), rng);
                double[] w = array(wo + d + rng.nextInt(3), rng);
                assertEquals(Double.doubleToRawLongBits(RowKernels.scalarDot(x, xo, w, wo, d)),
                        Double.doubleToRawLongBits(VectorRowKernels.dot(x, xo, w, wo, d)), "dot, d = " + d);
                double a = entry(rng);
                double[] out1 = array(wo + d + 2, rng);
                double[] out2 = out1.clone();
                RowKernels.scalarAxpy(a, x, xo, out1, wo, d);
                VectorRowKernels.axpy(a, x, xo, out2, wo, d);
                for (int j = 0; j < out1.length; j++) {
                    assertEquals(Double.doubleToRawLongBits(out1[j]), Double.doubleToRawLongBits(out2[j]),
                            "axpy, d = " + d + ", entry " + j);
                }
            }
        }
    }

    @Test
    void fourRowDotsGiveTheOneRowBits() {
        UniformRandomProvider rng = Rngs.seeded(20);
        for (int d : LENGTHS) {
            for (int rep = 0; rep < 10; rep++) {
                int stride = d + rng.nextInt(3);
                double[] x = array(7 * stride + d + 5, rng);
                int wo = rng.nextInt(5);
                double[] w = array(wo + d + rng.nextInt(3), rng);
                // rows in any order, possibly the same row twice
                int[] o = {rng.nextInt(7) * stride + rng.nextInt(5), rng.nextInt(7) * stride, 3, rng.nextInt(7) * stride};
                int ro = rng.nextInt(3);
                double[] scalar = new double[ro + 4];
                double[] vector = new double[ro + 4];
                double[] chosen = new double[ro + 4];
                RowKernels.scalarDot4(x, o[0], o[1], o[2], o[3], w, wo, d, scalar, ro);
                RowKernels.vectorDot4(x, o[0], o[1], o[2], o[3], w, wo, d, vector, ro);
                RowKernels.dot4(x, o[0], o[1], o[2], o[3], w, wo, d, chosen, ro);
                for (int k = 0; k < 4; k++) {
                    long expected = Double.doubleToRawLongBits(RowKernels.scalarDot(x, o[k], w, wo, d));
                    assertEquals(expected, Double.doubleToRawLongBits(scalar[ro + k]), "scalar, d = " + d + ", row " + k);
                    assertEquals(expected, Double.doubleToRawLongBits(vector[ro + k]), "vector, d = " + d + ", row " + k);
                    assertEquals(expected, Double.doubleToRawLongBits(chosen[ro + k]), "chosen, d = " + d + ", row " + k);
                }
            }
        }
    }

    @Test
    void fourRowAxpysGiveFourSuccessiveAxpysBits() {
        UniformRandomProvider rng = Rngs.seeded(21);
        for (int d : LENGTHS) {
            for (int rep = 0; rep < 10; rep++) {
                int stride = d + rng.nextInt(3);
                double[] x = array(7 * stride + d + 5, rng);
                int[] o = {rng.nextInt(7) * stride + rng.nextInt(5), rng.nextInt(7) * stride, 3, rng.nextInt(7) * stride};
                double[] a = {entry(rng), entry(rng), entry(rng), entry(rng)};
                int oo = rng.nextInt(4);
                double[] expected = array(oo + d + 2, rng);
                double[] scalar = expected.clone();
                double[] vector = expected.clone();
                double[] chosen = expected.clone();
                for (int k = 0; k < 4; k++) {
                    RowKernels.scalarAxpy(a[k], x, o[k], expected, oo, d);
                }
                RowKernels.scalarAxpy4(a[0], a[1], a[2], a[3], x, o[0], o[1], o[2], o[3], scalar, oo, d);
                RowKernels.vectorAxpy4(a[0], a[1], a[2], a[3], x, o[0], o[1], o[2], o[3], vector, oo, d);
                RowKernels.axpy4(a[0], a[1], a[2], a[3], x, o[0], o[1], o[2], o[3], chosen, oo, d);
                for (int j = 0; j < expected.length; j++) {
                    long e = Double.doubleToRawLongBits(expected[j]);
                    assertEquals(e, Double.doubleToRawLongBits(scalar[j]), "scalar, d = " + d + ", entry " + j);
                    assertEquals(e, Double.doubleToRawLongBits(vector[j]), "vector, d = " + d + ", entry " + j);
                    assertEquals(e, Double.doubleToRawLongBits(chosen[j]), "chosen, d = " + d + ", entry " + j);
                }
            }
        }
    }

    @Test
    void theChosenKernelGivesTheScalarBits() {
        UniformRandomProvider rng = Rngs.seeded(18);
        double[] x = array(300, rng);
        double[] w = array(300, rng);
        assertEquals(Double.doubleToRawLongBits(RowKernels.scalarDot(x, 3, w, 1, 257)),
                Double.doubleToRawLongBits(RowKernels.dot(x, 3, w, 1, 257)));
    }

    @Test
    void theReorderedDotAgreesToRounding() {
        UniformRandomProvider rng = Rngs.seeded(19);
        boolean differed = false;
        for (int d : LENGTHS) {
            for (int rep = 0; rep < 30; rep++) {
                double[] x = array(d, rng);
                double[] w = array(d, rng);
                double exact = RowKernels.scalarDot(x, 0, w, 0, d);
                double reordered = VectorRowKernels.dotReordered(x, 0, w, 0, d);
                // each is within γ_d·Σ|x_j w_j| of the exact sum, γ_d = d·u/(1 − d·u), u = 2⁻⁵³
                double abs = 0;
                for (int j = 0; j < d; j++) {
                    abs += Math.abs(x[j] * w[j]);
                }
                double gamma = d * 0x1p-53 / (1 - d * 0x1p-53);
                assertTrue(Math.abs(exact - reordered) <= 2 * gamma * abs * (1 + 1e-12),
                        "d = " + d + ": " + exact + " vs " + reordered);
                differed |= exact != reordered;
            }
        }
        assertTrue(differed, "the reordered dot groups the additions differently, so some results differ");
    }

    @Test
    void thePropertySelectsTheKernel() {
        assertEquals(RowKernels.Kernel.SCALAR, RowKernels.choose("scalar"));
        assertEquals(RowKernels.Kernel.SCALAR, RowKernels.choose(" FALSE "));
        RowKernels.Kernel vector = RowKernels.vectorAvailable() ? RowKernels.Kernel.VECTOR : RowKernels.Kernel.SCALAR;
        assertEquals(vector, RowKernels.choose(null));
        assertEquals(vector, RowKernels.choose("true"));
        assertEquals(RowKernels.vectorAvailable() ? RowKernels.Kernel.VECTOR_REORDERED : RowKernels.Kernel.SCALAR,
                RowKernels.choose("reordered"));
    }

    private static String child(String... jvmArgs) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of(jvmArgs));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), RowKernelsProbe.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child JVM did not finish");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void withoutTheModuleTheScalarKernelRunsSilentlyWithTheSameBits() throws Exception {
        String scalar = child().strip();
        assertTrue(scalar.matches("SCALAR -?[0-9]+"), "one line, no warning: [" + scalar + "]");
        String bits = scalar.substring("SCALAR ".length());
        String withModule = child("--add-modules", "jdk.incubator.vector").strip();
        String last = withModule.substring(withModule.lastIndexOf('\n') + 1);
        String expected = VectorRowKernels.hardwareSupported() ? "VECTOR " : "SCALAR ";
        assertEquals(expected + bits, last, "the vector kernel gives the scalar bits");
    }
}
