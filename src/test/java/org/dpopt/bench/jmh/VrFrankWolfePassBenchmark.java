package org.dpopt.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.dpopt.data.Synthetic;
import org.dpopt.geometry.Polytopes;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.frankwolfe.VarianceReducedFrankWolfe;
import org.ejml.data.DMatrixRMaj;
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
 * One full run of the variance-reduced private Frank–Wolfe (BGM21 Alg. 4; one pass over the data:
 * anchors, difference batches, report-noisy-max over the 2d vertices of the ℓ1 ball, calibration
 * included, diagnostics off; with the default random permutation and with batches in storage order)
 * vs one plain full-gradient pass ∇F̂(w) with the same GLL kernel, on the
 * same data in the same JVM. Run:
 * {@code mvn -o -Pjmh test-compile exec:exec -Djmh.args="VrFrankWolfePassBenchmark -f 1 -wi 2 -i 3"}.
 * Target: ≤ 2× the plain pass (validation/frank-wolfe.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xmx4g"})
@Warmup(iterations = 2)
@Measurement(iterations = 3)
public class VrFrankWolfePassBenchmark {

    @Param({"1000000"})
    int n;

    @Param({"100"})
    int d;

    Problem problem;
    VarianceReducedFrankWolfe vr;
    VarianceReducedFrankWolfe vrSequential;
    PrivacyBudget budget;
    DMatrixRMaj w;
    DMatrixRMaj g;
    long seed;

    @Setup(Level.Trial)
    public void setup() {
        problem = Problem.of(Synthetic.logistic(n, Synthetic.plantedVector(d, 2.0, Rngs.seeded(1)), Rngs.seeded(2))
                .data(), Losses.logistic(), Polytopes.l1Ball(10.0));
        vr = VarianceReducedFrankWolfe.builder().passes(1).diagnostics(false).build();
        vrSequential = VarianceReducedFrankWolfe.builder().passes(1).diagnostics(false).shuffle(false).build();
        budget = PrivacyBudget.of(1, 1e-6);
        w = new DMatrixRMaj(d, 1);
        w.data[0] = 1;
        g = new DMatrixRMaj(d, 1);
    }

    @Benchmark
    public OptimizationResult vrFrankWolfePass() {
        return vr.optimize(problem, budget, Rngs.seeded(seed++));
    }

    /** Batches in storage order (sequential memory access; same privacy). */
    @Benchmark
    public OptimizationResult vrFrankWolfePassSequential() {
        return vrSequential.optimize(problem, budget, Rngs.seeded(seed++));
    }

    @Benchmark
    public DMatrixRMaj plainGradientPass() {
        problem.fullGradient(w, g);
        return g;
    }
}
