package org.dpopt.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.linalg.RowKernels;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.noise.Rngs;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The full-gradient pass of a logistic loss (per row: dot, φ′, axpy) over flat row-major data of
 * d = 100, with each implementation of the row kernels called directly: the scalar loops, the vector
 * kernels with the scalar bits, and the reordered vector dot (agrees to rounding). Score: ns per
 * example×feature (one operation = one entry of the data). {@code rows} = 256 keeps the data in the
 * second-level cache (arithmetic-bound); 200 000 (160 MB) streams it from memory.
 *
 * <p>Same JVM for every kernel (the ratios are what count on a shared machine):
 * {@code mvn -o -Pjmh test-compile exec:exec -Djmh.args="RowKernelsBenchmark -f 0 -wi 3 -i 5"} (the jmh
 * profile starts its JVM with the Vector API module). One fork per kernel: {@code -f 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--add-modules=jdk.incubator.vector"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RowKernelsBenchmark {
    static final int D = 100;

    @Param({"256", "200000"})
    int rows;

    double[] x;
    double[] y;
    double[] w;
    double[] out;
    GeneralizedLinearLoss loss;

    @Setup(Level.Trial)
    public void setup() {
        UniformRandomProvider rng = Rngs.seeded(3);
        x = new double[rows * D];
        for (int i = 0; i < x.length; i++) {
            x[i] = rng.nextDouble() - 0.5;
        }
        y = new double[rows];
        for (int i = 0; i < rows; i++) {
            y[i] = rng.nextBoolean() ? 1 : -1;
        }
        w = new double[D];
        for (int j = 0; j < D; j++) {
            w[j] = (rng.nextDouble() - 0.5) / 10;
        }
        out = new double[D];
        loss = Losses.logistic();
        if (!RowKernels.vectorAvailable()) {
            throw new IllegalStateException("start the benchmark JVM with --add-modules jdk.incubator.vector");
        }
    }

    private double perCell(double[] g) {
        return g[0] + g[D - 1];
    }

    @Benchmark
    public double scalar() {
        java.util.Arrays.fill(out, 0);
        for (int i = 0; i < rows; i++) {
            double z = RowKernels.scalarDot(x, i * D, w, 0, D);
            RowKernels.scalarAxpy(loss.derivative(z, y[i]) / rows, x, i * D, out, 0, D);
        }
        return perCell(out);
    }

    @Benchmark
    public double vector() {
        java.util.Arrays.fill(out, 0);
        for (int i = 0; i < rows; i++) {
            double z = RowKernels.vectorDot(x, i * D, w, 0, D);
            RowKernels.vectorAxpy(loss.derivative(z, y[i]) / rows, x, i * D, out, 0, D);
        }
        return perCell(out);
    }

    @Benchmark
    public double reordered() {
        java.util.Arrays.fill(out, 0);
        for (int i = 0; i < rows; i++) {
            double z = RowKernels.reorderedDot(x, i * D, w, 0, D);
            RowKernels.vectorAxpy(loss.derivative(z, y[i]) / rows, x, i * D, out, 0, D);
        }
        return perCell(out);
    }
}
