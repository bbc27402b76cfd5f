package org.dpopt.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpopt.accounting.AblqAccountant;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.accounting.TruncationTerm;
import org.dpopt.linalg.Checks;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.DeterministicSampler;
import org.dpopt.sampling.DynamicShuffleSampler;
import org.dpopt.sampling.PersistentShuffleSampler;
import org.dpopt.sampling.PoissonSampler;
import org.dpopt.sampling.Samplers;
import org.dpopt.sampling.TruncatedPoissonSampler;
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
    @Option(names = "--accountant",
            description = "pld (default for poisson) | rdp | ablq (sampler-aware; default for the other samplers)")
    String accountant;
    @Option(names = "--discretization", description = "PLD grid spacing h (default 1e-4).") Double discretization;
    @Option(names = "--bound", defaultValue = "upper",
            description = "upper (a guarantee) | lower (optimistic; ablq accountant only)") String bound;
    @Option(names = "--json") boolean json;

    private Integer chosenMaxBatch;

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
            case "truncated-poisson": {
                int cap;
                if (maxBatchSize != null) {
                    cap = Checks.atLeastOne("--max-batch-size", maxBatchSize);
                } else if (epsilon != null && delta != null) {
                    // leave 90% of delta to the Poisson curve
                    cap = TruncationTerm.maxBatchFor(n, (double) b / n, t, Checks.nonNegative("--epsilon", epsilon),
                            Checks.delta("--delta", delta), 0.1);
                } else {
                    cap = (int) Math.min(n, Math.ceil(b + Samplers.DEFAULT_TRUNCATION_SIGMAS * Math.sqrt(b)));
                }
                chosenMaxBatch = cap;
                if (cap > n) {
                    throw Checks.fail("--max-batch-size", "at most --dataset-size " + n, cap);
                }
                return new TruncatedPoissonSampler(b, cap, t);
            }
            case "deterministic":
                return new DeterministicSampler(b, epochsOf(n, b, t));
            case "shuffle-persistent":
                return new PersistentShuffleSampler(b, epochsOf(n, b, t));
            case "shuffle-dynamic":
                return new DynamicShuffleSampler(b, epochsOf(n, b, t));
            default:
                throw Checks.fail("--sampler", "one of [poisson, truncated-poisson, deterministic, shuffle-persistent, "
                        + "shuffle-dynamic]", sampler);
        }
    }

    /** E = T/S for a valid (n, b, T): b divides n and S = n/b divides T. */
    private static int epochsOf(int n, int b, long t) {
        if (n % b != 0) {
            throw Checks.fail("--batch-size", "a divisor of --dataset-size " + n + " for fixed-size batches", b);
        }
        long s = n / b;
        if (t % s != 0 || t / s > Integer.MAX_VALUE) {
            throw Checks.fail("--steps", "a multiple of the steps per epoch n/b = " + s, t);
        }
        return (int) (t / s);
    }

    private AblqAccountant.Bound bound() {
        switch (bound) {
            case "upper":
                return AblqAccountant.Bound.UPPER;
            case "lower":
                return AblqAccountant.Bound.LOWER;
            default:
                throw Checks.fail("--bound", "upper or lower", bound);
        }
    }

    @Override
    public Integer call() {
        AblqAccountant.Bound side = bound();
        String accName = accountant != null ? accountant : ("poisson".equals(sampler) ? Accountants.DEFAULT : "ablq");
        PrivacyAccountant acc = discretization == null ? Accountants.byName(accName)
                : Accountants.byName(accName, discretization);
        if ("poisson".equals(sampler) && acc instanceof AblqAccountant) {
            // Poisson holds under add/remove itself; report that (stronger) relation
            acc = new AblqAccountant(NeighboringRelation.ADD_OR_REMOVE_ONE, new RdpAccountant(), true);
        }
        if (side == AblqAccountant.Bound.LOWER && !(acc instanceof AblqAccountant)) {
            throw Checks.fail("--bound", "upper unless --accountant is ablq", bound);
        }
        AblqAccountant ablq = acc instanceof AblqAccountant a ? a : null;
        boolean lower = side == AblqAccountant.Bound.LOWER;
        EventFamily fam = family();
        Map<String, Object> out = new LinkedHashMap<>();
        switch (query) {
            case "epsilon": {
                requireAbsent("--epsilon", epsilon);
                double z = Checks.positive("--noise-multiplier", req("--noise-multiplier", noiseMultiplier));
                double d = Checks.delta("--delta", req("--delta", delta));
                PrivacyReport r = acc.report(fam.at(z), d);
                if (lower) {
                    out.put("epsilon", requireLower(r.epsilonLower()));
                    out.put("epsilon_upper", r.epsilon());
                } else {
                    out.put("epsilon", r.epsilon());
                    if (!Double.isNaN(r.epsilonLower())) {
                        out.put("epsilon_lower", r.epsilonLower());
                    }
                }
                out.put("delta", d);
                out.put("noise_multiplier", z);
                out.put("bound", lower ? "lower" : r.bound());
                out.put("notes", r.notes());
                break;
            }
            case "delta": {
                requireAbsent("--delta", delta);
                double z = Checks.positive("--noise-multiplier", req("--noise-multiplier", noiseMultiplier));
                double e = Checks.nonNegative("--epsilon", req("--epsilon", epsilon));
                out.put("delta", lower ? requireLower(ablq.deltaLower(fam.at(z), e)) : acc.delta(fam.at(z), e));
                if (!lower && acc instanceof PldAccountant pld) {
                    out.put("delta_lower", pld.deltaLower(fam.at(z), e));
                }
                if (!lower && ablq != null && !Double.isNaN(ablq.deltaLower(fam.at(z), e))) {
                    out.put("delta_lower", ablq.deltaLower(fam.at(z), e));
                }
                out.put("epsilon", e);
                out.put("noise_multiplier", z);
                out.put("bound", lower ? "lower" : "upper");
                break;
            }
            case "calibrate": {
                requireAbsent("--noise-multiplier", noiseMultiplier);
                double e = Checks.epsilon("--epsilon", req("--epsilon", epsilon));
                double d = Checks.delta("--delta", req("--delta", delta));
                double z = lower ? ablq.noiseMultiplier(fam::at, e, d, side, 1e-6)
                        : Calibration.noiseMultiplier(acc, fam::at, e, d, 1e-6);
                out.put("noise_multiplier", z);
                if (lower) {
                    out.put("epsilon", ablq.epsilonLower(fam.at(z), d));
                } else {
                    PrivacyReport r = acc.report(fam.at(z), d);
                    out.put("epsilon", r.epsilon());
                    if (!Double.isNaN(r.epsilonLower())) {
                        out.put("epsilon_lower", r.epsilonLower());
                    }
                }
                out.put("target_epsilon", e);
                out.put("delta", d);
                out.put("bound", lower ? "lower" : "upper");
                if (lower) {
                    out.put("notes", java.util.List.of("OPTIMISTIC: the noise multiplier truly needed is at least this; "
                            + "not a privacy guarantee"));
                }
                break;
            }
            default:
                throw Checks.fail("query", "one of epsilon, delta, calibrate", query);
        }
        out.put("accountant", acc.name());
        out.put("sampler", sampler);
        if (chosenMaxBatch != null) {
            out.put("max_batch_size", chosenMaxBatch);
        }
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

    private double requireLower(double v) {
        if (Double.isNaN(v)) {
            throw Checks.fail("--bound", "upper for sampler " + sampler + " (no lower bound implemented)", bound);
        }
        return v;
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
