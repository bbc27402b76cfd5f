package org.dpopt.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * ε(δ = 1e-5) of the Poisson-subsampled Gaussian, σ = 1, q = 0.01, T = 10⁴, from scratch (build the
 * curves, compose, query), with the PLD accountant at h = 1e-4 (both directions, pessimistic only, as
 * {@code epsilon} does) and with the RDP accountant (default orders). The baseline is dp_accounting
 * 0.6.0 on this machine type (refdata/accounting/dp_accounting_timing.csv, minimum over runs): PLD
 * build 0.382 s + ε query 0.030 s = 0.412 s; RDP build 0.0258 s + query 0.000155 s = 0.0260 s. Targets
 * (issue 3): ≥ 5× faster for PLD (≤ 82 ms), ≥ 50× for RDP (≤ 0.52 ms).
 * Run: {@code mvn -o -Pjmh test-compile exec:exec -Djmh.args="AccountingBenchmark -f 1 -wi 3 -i 5"}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class AccountingBenchmark {

    private final DpEvent event = new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(1.0)), 10_000);

    @Benchmark
    public double pldEpsilon() {
        return new PldAccountant().epsilon(event, 1e-5);
    }

    @Benchmark
    public double rdpEpsilon() {
        return new RdpAccountant().epsilon(event, 1e-5);
    }
}
