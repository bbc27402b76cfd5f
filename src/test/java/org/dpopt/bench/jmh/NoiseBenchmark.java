package org.dpopt.bench.jmh;

import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.noise.NoiseSource;
import org.dpopt.noise.ReportNoisyMax;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Secure vs seeded noise, per draw (ns per coordinate or per report-noisy-max candidate), in the same
 * JVM: Gaussian release on a d = 108 vector (census-income's dimension), Laplace release, RNM over
 * J = 1000 candidates, raw generator words; and the noise of a whole DP-SGD run (3 060 steps × 108
 * coordinates ≈ 3.3·10⁵ Gaussian draws, census-income defaults) including making the secure generator.
 * Target (issue 11 item 6): the secure run's noise adds ≤ ~50 ms.
 * Run: {@code mvn -Pjmh test-compile exec:exec -Djmh.args="NoiseBenchmark -f 1 -wi 3 -i 5"}; the cold
 * (first run in a fresh JVM) cost: {@code -Djmh.args="NoiseBenchmark.dpSgdRun -bm ss -wi 0 -i 1 -f 10"}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgs = {"-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class NoiseBenchmark {
    static final int D = 108;
    static final int J = 1000;
    static final int STEPS = 3060;

    NoiseSource seeded;
    NoiseSource secure;
    UniformRandomProvider seededRng;
    UniformRandomProvider secureRng;
    SecureRandom secureRandom;
    DMatrixRMaj v;
    double[] scores;
    ReportNoisyMax rnm;

    @Setup(Level.Trial)
    public void setup() {
        seeded = NoiseSource.of(Rngs.seeded(1));
        secure = NoiseSource.of(Rngs.secure());
        seededRng = Rngs.seeded(2);
        secureRng = Rngs.secure();
        secureRandom = new SecureRandom();
        v = new DMatrixRMaj(D, 1);
        for (int j = 0; j < D; j++) {
            v.data[j] = Math.sin(j) * 3;
        }
        scores = new double[J];
        for (int j = 0; j < J; j++) {
            scores[j] = Math.cos(j);
        }
        rnm = new ReportNoisyMax(0.1, 1.0, false, NeighboringRelation.REPLACE_ONE);
    }

    @Benchmark
    @OperationsPerInvocation(D)
    public double gaussianSeeded() {
        seeded.addGaussian(v, 1.0, 1.1);
        return v.data[0];
    }

    @Benchmark
    @OperationsPerInvocation(D)
    public double gaussianSecure() {
        secure.addGaussian(v, 1.0, 1.1);
        return v.data[0];
    }

    @Benchmark
    @OperationsPerInvocation(D)
    public double laplaceSeeded() {
        seeded.addLaplace(v, 1.0, 1.1);
        return v.data[0];
    }

    @Benchmark
    @OperationsPerInvocation(D)
    public double laplaceSecure() {
        secure.addLaplace(v, 1.0, 1.1);
        return v.data[0];
    }

    @Benchmark
    @OperationsPerInvocation(J)
    public int rnmSeeded() {
        return seeded.reportNoisyMax(rnm, scores, J, 1.0);
    }

    @Benchmark
    @OperationsPerInvocation(J)
    public int rnmSecure() {
        return secure.reportNoisyMax(rnm, scores, J, 1.0);
    }

    @Benchmark
    public long wordXoRoShiRo() {
        return seededRng.nextLong();
    }

    @Benchmark
    public long wordSecureRng() {
        return secureRng.nextLong();
    }

    @Benchmark
    public long wordSecureRandom() {
        return secureRandom.nextLong();
    }

    private static double dpSgdRunNoise(NoiseSource ns) {
        DMatrixRMaj g = new DMatrixRMaj(D, 1);
        for (int t = 0; t < STEPS; t++) {
            ns.addGaussian(g, 1.0, 1.1);
        }
        return g.data[0];
    }

    /** The Gaussian noise of one DP-SGD run, seeded. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public double dpSgdRunSeeded() {
        return dpSgdRunNoise(NoiseSource.of(Rngs.seeded(7)));
    }

    /** The Gaussian noise of one DP-SGD run, secure (a fresh generator seeded from SecureRandom). */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public double dpSgdRunSecure() {
        return dpSgdRunNoise(NoiseSource.of(Rngs.secure()));
    }
}
