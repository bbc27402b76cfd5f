package org.dpopt.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.linalg.Checks;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.PoissonSampler;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code dpopt account epsilon|delta|calibrate}: privacy of DP-SGD (ABLQ) with a given sampler,
 * without data.
 */
@Command(name = "account", mixinStandardHelpOptions = true,
        description = "Privacy accounting for DP-SGD: epsilon, delta, or calibrate the noise multiplier.")
final class AccountCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", description = "epsilon | delta | calibrate")
    String query;
    @Option(names = "--noise-multiplier", description = "Noise multiplier z = sigma / sensitivity.")
    Double noiseMultiplier;
    @Option(names = "--epsilon") Double epsilon;
    @Option(names = "--delta") Double delta;
    @Option(names = "--sampler", defaultValue = "poisson") String sampler;
    @Option(names = "--sampling-rate") Double samplingRate;
    @Option(names = "--steps") Long steps;
    @Option(names = "--dataset-size") Integer datasetSize;
    @Option(names = "--batch-size") Integer batchSize;
    @Option(names = "--max-batch-size") Integer maxBatchSize;
    @Option(names = "--accountant", description = "pld (default) or rdp.") String accountant;
    @Option(names = "--discretization", description = "PLD grid spacing h (default 1e-4).") Double discretization;
    @Option(names = "--json") boolean json;

    /** Builds z ↦ event for the chosen sampler. */
    interface EventFamily {
        DpEvent at(double z);
    }

    private EventFamily family() {
        if (steps == null) {
            throw Checks.fail("--steps", "given", "absent");
        }
        Checks.atLeastOne("--steps", steps);
        if (samplingRate != null) {
            if (!"poisson".equals(sampler)) {
                throw Checks.fail("--sampling-rate", "used only with --sampler poisson", samplingRate);
            }
            if (datasetSize != null || batchSize != null) {
                throw Checks.fail("--sampling-rate", "given without --dataset-size/--batch-size", samplingRate);
            }
            double q = Checks.probability("--sampling-rate", samplingRate);
            long t = steps;
            return z -> new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(z)), t);
        }
        if (datasetSize == null || batchSize == null) {
            throw Checks.fail("--dataset-size and --batch-size", "given (or --sampling-rate for poisson)",
                    datasetSize + ", " + batchSize);
        }
        int n = Checks.atLeastOne("--dataset-size", datasetSize);
        int b = Checks.atLeastOne("--batch-size", batchSize);
        if (b > n) {
            throw Checks.fail("--batch-size", "at most --dataset-size " + n, b);
        }
        BatchSampler s = samplerFor(n, b, steps);
        return z -> s.privacyEvent(n, z);
    }

    private BatchSampler samplerFor(int n, int b, long t) {
        if (maxBatchSize != null && !"truncated-poisson".equals(sampler)) {
            throw Checks.fail("--max-batch-size", "used only with --sampler truncated-poisson", maxBatchSize);
        }
        switch (sampler) {
            case "poisson":
                return new PoissonSampler(b, t);
            default:
                throw Checks.fail("--sampler", "one of [poisson]", sampler);
        }
    }

    @Override
    public Integer call() {
        PrivacyAccountant acc = discretization == null ? Accountants.byName(accountant)
                : Accountants.byName(accountant, discretization);
        EventFamily fam = family();
        Map<String, Object> out = new LinkedHashMap<>();
        switch (query) {
            case "epsilon": {
                requireAbsent("--epsilon", epsilon);
                double z = Checks.positive("--noise-multiplier", req("--noise-multiplier", noiseMultiplier));
                double d = Checks.delta("--delta", req("--delta", delta));
                PrivacyReport r = acc.report(fam.at(z), d);
                out.put("epsilon", r.epsilon());
                if (!Double.isNaN(r.epsilonLower())) {
                    out.put("epsilon_lower", r.epsilonLower());
                }
                out.put("delta", d);
                out.put("noise_multiplier", z);
                out.put("bound", r.bound());
                out.put("notes", r.notes());
                break;
            }
            case "delta": {
                requireAbsent("--delta", delta);
                double z = Checks.positive("--noise-multiplier", req("--noise-multiplier", noiseMultiplier));
                double e = Checks.nonNegative("--epsilon", req("--epsilon", epsilon));
                out.put("delta", acc.delta(fam.at(z), e));
                if (acc instanceof PldAccountant pld) {
                    out.put("delta_lower", pld.deltaLower(fam.at(z), e));
                }
                out.put("epsilon", e);
                out.put("noise_multiplier", z);
                out.put("bound", "upper");
                break;
            }
            case "calibrate": {
                requireAbsent("--noise-multiplier", noiseMultiplier);
                double e = Checks.epsilon("--epsilon", req("--epsilon", epsilon));
                double d = Checks.delta("--delta", req("--delta", delta));
                double z = Calibration.noiseMultiplier(acc, fam::at, e, d, 1e-6);
                out.put("noise_multiplier", z);
                PrivacyReport r = acc.report(fam.at(z), d);
                out.put("epsilon", r.epsilon());
                if (!Double.isNaN(r.epsilonLower())) {
                    out.put("epsilon_lower", r.epsilonLower());
                }
                out.put("target_epsilon", e);
                out.put("delta", d);
                out.put("bound", "upper");
                break;
            }
            default:
                throw Checks.fail("query", "one of epsilon, delta, calibrate", query);
        }
        out.put("accountant", acc.name());
        out.put("sampler", sampler);
        out.put("relation", acc.relation().toString());
        PrintWriter o = spec.commandLine().getOut();
        if (json) {
            o.println(Json.write(out));
        } else {
            out.forEach((k, v) -> o.printf("%-18s %s%n", k, v));
        }
        o.flush();
        return 0;
    }

    private static <T> T req(String name, T v) {
        if (v == null) {
            throw Checks.fail(name, "given", "absent");
        }
        return v;
    }

    private static void requireAbsent(String name, Object v) {
        if (v != null) {
            throw Checks.fail(name, "absent for this query", v);
        }
    }
}
