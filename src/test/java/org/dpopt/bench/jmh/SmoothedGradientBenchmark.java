package org.dpopt.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.noise.Rngs;
import org.dpopt.oracle.GllBisectionProx;
import org.ejml.data.DMatrixRMaj;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Per-example gradient of the Moreau-smoothed hinge through {@link GllBisectionProx} (α = 1e−6, K = 21)
 * vs the exact hinge (sub)gradient, accumulated over all rows of the same n = 20000, d = 100 data set at
 * the same w (margins ~ N(0, 1)). Run:
 * {@code mvn -o -Pjmh test-compile exec:exec -Djmh.args="SmoothedGradientBenchmark -f 1 -wi 2 -i 3"}.
 * β = 1000 is Phased-SGD's smoothing at n ≈ 10⁶; β = 10 makes ~8 % of the prox points need the full bisection.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class SmoothedGradientBenchmark {
    @Param({"1000", "10"})
    public double beta;

    private Dataset data;
    private DMatrixRMaj w;
    private DMatrixRMaj out;
    private GeneralizedLinearLoss hinge;
    private GllBisectionProx smoothed;

    /** Builds the data and the two losses. */
    @Setup
    public void setup() {
        UniformRandomProvider rng = Rngs.seeded(1);
        int d = 100;
        DMatrixRMaj wStar = Synthetic.plantedVector(d, 1, rng);
        data = Synthetic.linearlySeparable(20_000, wStar, 0.1, rng).data();
        w = wStar.copy();
        for (int j = 0; j < d; j++) {
            w.data[j] *= 10;
        }
        out = new DMatrixRMaj(d, 1);
        hinge = Losses.hinge();
        smoothed = GllBisectionProx.of(hinge, beta, 1e-6);
    }

    /** Σ_i φ′(⟨w, x_i⟩) x_i with the exact hinge subgradient. */
    @Benchmark
    public double exact() {
        double[] o = out.data;
        java.util.Arrays.fill(o, 0);
        for (int i = 0; i < data.size(); i++) {
            data.addScaledRow(i, hinge.derivative(data.dot(i, w), data.label(i)), out);
        }
        return o[0];
    }

    /** Σ_i φ_β′(⟨w, x_i⟩) x_i through the bisection prox. */
    @Benchmark
    public double bisection() {
        double[] o = out.data;
        java.util.Arrays.fill(o, 0);
        for (int i = 0; i < data.size(); i++) {
            data.addScaledRow(i, smoothed.derivative(data.dot(i, w), data.label(i)), out);
        }
        return o[0];
    }
}
