package org.dpopt.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.dpopt.accounting.AblqAccountant;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.accounting.TruncationTerm;
import org.dpopt.linalg.Checks;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.Samplers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code dpopt account epsilon|delta|calibrate|statement}: privacy of DP-SGD (ABLQ) with a given
 * sampler, without data.
 *
 * <p>Output keys (JSON, in this order where present): the queried quantity ({@code epsilon},
 * {@code delta} or {@code noise_multiplier}) and its companions; {@code epsilon_meaning} says what
 * {@code epsilon} is ({@code --bound upper}: a certified guarantee; {@code --bound lower}: an
 * optimistic lower bound, with the guarantee under {@code epsilon_upper}); then {@code bound},
 * {@code accountant}, {@code sampler}, {@code relation}, the schedule and {@code notes}. Infinite
 * values are {@code null} with a {@code <key>_infinite: true} companion (see {@link Json}).
 */
@Command(name = "account", mixinStandardHelpOptions = true,
        description = "Privacy accounting for DP-SGD: epsilon, delta, calibrate the noise multiplier, or a "
                + "plain-English privacy statement.")
final class AccountCommand implements Callable<Integer> {

    /** Longest run accounted (longer requests are refused up front rather than run for minutes). */
    static final long MAX_STEPS = 1_000_000_000L;
    /** Largest target ε calibrated (beyond, the noise needed is negligible and the guarantee meaningless). */
    static final double MAX_CALIBRATION_EPSILON = 1000;

    static final String UPPER_MEANING = "upper bound: a certified (epsilon, delta)-DP guarantee";
    static final String LOWER_MEANING = "OPTIMISTIC LOWER BOUND, not a guarantee: the true epsilon of this mechanism "
            + "is at least this; epsilon_upper is the guarantee";

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "query", description = "epsilon | delta | calibrate | statement")
    String query;
    @Option(names = "--noise-multiplier", description = "Noise multiplier z = sigma / sensitivity.")
    Double noiseMultiplier;
    @Option(names = "--epsilon", description = "Target epsilon (delta, calibrate).") Double epsilon;
    @Option(names = "--delta", description = "Target delta (epsilon, calibrate, statement).") Double delta;
    @Option(names = "--sampler", defaultValue = "poisson",
            description = "poisson | truncated-poisson | deterministic | shuffle-persistent | shuffle-dynamic")
    String sampler;
    @Option(names = "--sampling-rate", description = "Poisson sampling rate q (instead of dataset and batch size).")
    Double samplingRate;
    @Option(names = "--steps", description = "Number of steps T.") Long steps;
    @Option(names = "--epochs", description = "Epochs E instead of --steps: T = ceil(E n / B).") Double epochs;
    @Option(names = "--dataset-size", description = "Public dataset size n.") Integer datasetSize;
    @Option(names = "--batch-size", description = "(Expected) batch size B.") Integer batchSize;
    @Option(names = "--max-batch-size", description = "Truncated Poisson: the cap on the batch size.")
    Integer maxBatchSize;
    @Option(names = "--accountant",
            description = "pld (default for poisson) | rdp | ablq (sampler-aware; default for the other samplers)")
    String accountant;
    @Option(names = "--discretization", description = "PLD grid spacing h (default 1e-4).") Double discretization;
    @Option(names = "--bound", defaultValue = "upper",
            description = "upper (a guarantee) | lower (optimistic; pld and ablq accountants)") String bound;
    @Option(names = "--json", description = "Print one JSON object.") boolean json;

    /** The schedule and the z ↦ event family of the request. */
    private record Plan(long steps, Double q, Integer n, Integer b, Double epochs, Integer maxBatch,
            java.util.function.DoubleFunction<DpEvent> family) {
    }

    @Override
    public Integer call() {
        String q = validQuery();
        boolean lower = validBound();
        Plan plan = plan(q);
        PrivacyAccountant acc = accountantFor(plan);
        if (lower && acc instanceof RdpAccountant) {
            throw Checks.fail("--bound", "upper for --accountant rdp (RDP has no lower bound)", bound);
        }
        Optional<String> unsupported = acc.unsupportedReason(plan.family().apply(1.0));
        if (unsupported.isPresent()) {
            throw Checks.fail("--accountant", "one that supports sampler " + sampler + " (" + unsupported.get() + ")",
                    acc.name());
        }
        Map<String, Object> out;
        switch (q) {
            case "epsilon":
                out = epsilonQuery(acc, plan, lower);
                break;
            case "delta":
                out = deltaQuery(acc, plan, lower);
                break;
            case "calibrate":
                out = calibrateQuery(acc, plan, lower);
                break;
            default:
                out = StatementQuery.statement(this, plan.steps(), plan.family(), acc);
                break;
        }
        print(out);
        return 0;
    }

    private String validQuery() {
        if (query == null || !List.of("epsilon", "delta", "calibrate", "statement").contains(query)) {
            throw Checks.fail("query", "one of [epsilon, delta, calibrate, statement]", query);
        }
        return query;
    }

    private boolean validBound() {
        if (!"upper".equals(bound) && !"lower".equals(bound)) {
            throw Checks.fail("--bound", "upper or lower", bound);
        }
        return "lower".equals(bound);
    }

    // ------------------------------------------------------------------ schedule and sampler

    private Plan plan(String q) {
        if (!Samplers.names().contains(sampler)) {
            throw Checks.fail("--sampler", "one of " + Samplers.names(), sampler);
        }
        if (steps != null && epochs != null) {
            throw Checks.fail("--epochs", "absent when --steps is given (one schedule only)", epochs);
        }
        if (maxBatchSize != null && !"truncated-poisson".equals(sampler)) {
            throw Checks.fail("--max-batch-size", "used only with --sampler truncated-poisson", maxBatchSize);
        }
        if (samplingRate != null) {
            if (!"poisson".equals(sampler)) {
                throw Checks.fail("--sampling-rate", "used only with --sampler poisson", samplingRate);
            }
            if (datasetSize != null || batchSize != null) {
                throw Checks.fail("--sampling-rate", "given without --dataset-size/--batch-size", samplingRate);
            }
            if (epochs != null) {
                throw Checks.fail("--epochs", "used with --dataset-size and --batch-size (T = ceil(E n / B)), not with "
                        + "--sampling-rate", epochs);
            }
            if ("statement".equals(q)) {
                throw Checks.fail("--sampling-rate", "absent for a statement (give --dataset-size, --batch-size, --epochs)",
                        samplingRate);
            }
            double rate = Checks.probability("--sampling-rate", samplingRate);
            long t = validSteps();
            return new Plan(t, rate, null, null, null, null,
                    z -> new SelfComposedEvent(new PoissonSampledEvent(rate, new GaussianEvent(z)), t));
        }
        if (datasetSize == null || batchSize == null) {
            throw Checks.fail(datasetSize == null ? "--dataset-size" : "--batch-size",
                    "given (with --batch-size and --dataset-size, or --sampling-rate for poisson)", "absent");
        }
        int n = Checks.atLeastOne("--dataset-size", datasetSize);
        int b = Checks.atLeastOne("--batch-size", batchSize);
        if (b > n) {
            throw Checks.fail("--batch-size", "at most --dataset-size " + n, b);
        }
        boolean fixed = !sampler.contains("poisson");
        if (fixed && n % b != 0) {
            throw Checks.fail("--batch-size", "a divisor of --dataset-size " + n + " for sampler " + sampler, b);
        }
        long t;
        if (epochs != null) {
            double e = Checks.positive("--epochs", epochs);
            double tt = Math.ceil(e * n / b);
            if (!(tt <= MAX_STEPS)) {
                throw Checks.fail("--epochs", "at most " + MAX_STEPS + " steps (ceil(E n / B)) in total", e);
            }
            if (fixed && e != Math.rint(e)) {
                throw Checks.fail("--epochs", "a whole number for sampler " + sampler, e);
            }
            t = Samplers.epochSteps(e, n, b);
        } else {
            t = validSteps();
            if (fixed && t % (n / b) != 0) {
                throw Checks.fail("--steps", "a multiple of the steps per epoch n/B = " + (n / b) + " for sampler " + sampler,
                        t);
            }
        }
        Integer cap = null;
        if ("truncated-poisson".equals(sampler)) {
            if (maxBatchSize != null) {
                cap = maxBatchSize;
                if (cap < b) {
                    throw Checks.fail("--max-batch-size", "at least --batch-size " + b, cap);
                }
                if (cap > n) {
                    throw Checks.fail("--max-batch-size", "at most --dataset-size " + n, cap);
                }
            } else if ("calibrate".equals(q) && epsilon != null && delta != null && Double.isFinite(epsilon)
                    && epsilon > 0 && delta > 0 && delta < 1) {
                // leave 90% of δ to the Poisson curve
                cap = TruncationTerm.maxBatchFor(n, (double) b / n, t, epsilon, delta, 0.1);
            }
        }
        BatchSampler s = Samplers.forSteps(sampler, n, b, t, cap);
        Integer shownCap = "truncated-poisson".equals(sampler) ? s.maxBatchSlots(n) : null;
        Double rate = fixed ? null : (double) b / n;
        return new Plan(t, rate, n, b, epochs, shownCap, z -> s.privacyEvent(n, z));
    }

    private long validSteps() {
        if (steps == null) {
            throw Checks.fail("--steps", "given (or --epochs with --dataset-size and --batch-size)", "absent");
        }
        Checks.atLeastOne("--steps", steps);
        if (steps > MAX_STEPS) {
            throw Checks.fail("--steps", "at most " + MAX_STEPS + " (longer runs are refused, not run for hours)", steps);
        }
        return steps;
    }

    private PrivacyAccountant accountantFor(Plan plan) {
        boolean poisson = "poisson".equals(sampler);
        String name = accountant != null ? accountant : (poisson ? Accountants.DEFAULT : "ablq");
        if (discretization != null) {
            Checks.inRange("--discretization", discretization, 1e-7, 0.1);
        }
        PrivacyAccountant acc = discretization == null ? Accountants.byName(name) : Accountants.byName(name, discretization);
        if (poisson && acc instanceof AblqAccountant) {
            // Poisson holds under add/remove itself; report that (stronger) relation
            acc = new AblqAccountant(NeighboringRelation.ADD_OR_REMOVE_ONE, new RdpAccountant(), true);
        }
        return acc;
    }

    // ------------------------------------------------------------------ queries

    private double noise() {
        return Checks.positive("--noise-multiplier", req("--noise-multiplier", noiseMultiplier));
    }

    private Map<String, Object> epsilonQuery(PrivacyAccountant acc, Plan plan, boolean lower) {
        requireAbsent("--epsilon", epsilon);
        double z = noise();
        double d = Checks.delta("--delta", req("--delta", delta));
        PrivacyReport r = acc.report(plan.family().apply(z), d);
        Map<String, Object> out = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        if (lower) {
            out.put("epsilon", requireLower(r.epsilonLower()));
            out.put("epsilon_meaning", LOWER_MEANING);
            out.put("epsilon_upper", r.epsilon());
            notes.add("epsilon is the optimistic lower bound; epsilon_upper is the certified upper bound");
        } else {
            out.put("epsilon", r.epsilon());
            out.put("epsilon_meaning", UPPER_MEANING);
            if (!Double.isNaN(r.epsilonLower())) {
                out.put("epsilon_lower", r.epsilonLower());
            }
        }
        out.put("delta", d);
        out.put("noise_multiplier", z);
        notes.addAll(r.notes());
        common(out, acc, plan, lower, notes);
        return out;
    }

    private Map<String, Object> deltaQuery(PrivacyAccountant acc, Plan plan, boolean lower) {
        requireAbsent("--delta", delta);
        double z = noise();
        double e = Checks.nonNegative("--epsilon", req("--epsilon", epsilon));
        DpEvent ev = plan.family().apply(z);
        double up = acc.delta(ev, e);
        double low = lowerDelta(acc, ev, e);
        Map<String, Object> out = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        if (lower) {
            out.put("delta", requireLower(low));
            out.put("delta_meaning", "OPTIMISTIC LOWER BOUND, not a guarantee: the true delta at this epsilon is at least "
                    + "this; delta_upper is the guarantee");
            out.put("delta_upper", up);
            notes.add("delta is the optimistic lower bound; delta_upper is the certified upper bound");
        } else {
            out.put("delta", up);
            out.put("delta_meaning", "upper bound: the mechanism is (epsilon, delta)-DP");
            if (!Double.isNaN(low)) {
                out.put("delta_lower", low);
            }
        }
        out.put("epsilon", e);
        out.put("noise_multiplier", z);
        common(out, acc, plan, lower, notes);
        return out;
    }

    private static double lowerDelta(PrivacyAccountant acc, DpEvent ev, double e) {
        if (acc instanceof PldAccountant pld) {
            return pld.deltaLower(ev, e);
        }
        if (acc instanceof AblqAccountant ablq) {
            return ablq.deltaLower(ev, e);
        }
        return Double.NaN;
    }

    private Map<String, Object> calibrateQuery(PrivacyAccountant acc, Plan plan, boolean lower) {
        requireAbsent("--noise-multiplier", noiseMultiplier);
        double e = Checks.epsilon("--epsilon", req("--epsilon", epsilon));
        if (e > MAX_CALIBRATION_EPSILON) {
            throw Checks.fail("--epsilon", "at most " + MAX_CALIBRATION_EPSILON + " for calibration (larger budgets are not "
                    + "meaningful guarantees)", e);
        }
        double d = Checks.delta("--delta", req("--delta", delta));
        double z;
        try {
            if (lower) {
                if (acc instanceof AblqAccountant ablq) {
                    z = ablq.noiseMultiplier(plan.family(), e, d, org.dpopt.accounting.Bound.LOWER, 1e-6);
                } else {
                    throw Checks.fail("--bound", "upper for calibration with --accountant " + acc.name()
                            + " (the optimistic calibration is implemented for ablq)", bound);
                }
            } else {
                z = Calibration.noiseMultiplier(acc, plan.family(), e, d, 1e-6);
            }
        } catch (IllegalArgumentException ex) {
            if (ex.getMessage() != null && ex.getMessage().startsWith("privacy budget must be reachable")) {
                throw Checks.fail("--epsilon", "reachable at --delta " + d + " with sampler " + sampler
                        + " for some noise multiplier", e);
            }
            throw ex;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        out.put("noise_multiplier", z);
        if (lower) {
            out.put("noise_multiplier_meaning", "OPTIMISTIC: the noise truly needed is at least this; not a privacy "
                    + "guarantee");
            out.put("epsilon", ((AblqAccountant) acc).epsilonLower(plan.family().apply(z), d));
            out.put("epsilon_meaning", LOWER_MEANING);
            out.put("epsilon_upper", acc.epsilon(plan.family().apply(z), d));
            notes.add("noise_multiplier meets the target only under the optimistic lower bound");
        } else {
            PrivacyReport r = acc.report(plan.family().apply(z), d);
            out.put("noise_multiplier_meaning", "the smallest noise multiplier found whose certified epsilon is at most "
                    + "target_epsilon");
            out.put("epsilon", r.epsilon());
            out.put("epsilon_meaning", UPPER_MEANING);
            if (!Double.isNaN(r.epsilonLower())) {
                out.put("epsilon_lower", r.epsilonLower());
            }
            notes.addAll(r.notes());
        }
        out.put("target_epsilon", e);
        out.put("delta", d);
        common(out, acc, plan, lower, notes);
        return out;
    }

    /** The keys every account query ends with, in a fixed order. */
    void common(Map<String, Object> out, PrivacyAccountant acc, Plan plan, boolean lower, List<String> notes) {
        out.put("bound", lower ? "lower" : "upper");
        out.put("accountant", acc.name());
        out.put("sampler", sampler);
        out.put("relation", acc.relation().toString());
        out.put("steps", plan.steps());
        if (plan.n() != null) {
            out.put("dataset_size", plan.n());
            out.put("batch_size", plan.b());
        }
        if (plan.q() != null) {
            out.put("sampling_rate", plan.q());
        }
        if (plan.epochs() != null) {
            out.put("epochs", plan.epochs());
        }
        if (plan.maxBatch() != null) {
            out.put("max_batch_size", plan.maxBatch());
        }
        out.put("notes", notes);
    }

    /** The raw option values the statement needs (it reads the same flags). */
    Double delta() {
        return delta;
    }

    Double epsilonOption() {
        return epsilon;
    }

    Double noiseMultiplierOption() {
        return noiseMultiplier;
    }

    String samplerName() {
        return sampler;
    }

    Integer datasetSizeOption() {
        return datasetSize;
    }

    Integer batchSizeOption() {
        return batchSize;
    }

    Double epochsOption() {
        return epochs;
    }

    String boundOption() {
        return bound;
    }

    private void print(Map<String, Object> out) {
        PrintWriter o = spec.commandLine().getOut();
        if (json) {
            o.println(Json.write(out));
        } else {
            out.forEach((k, v) -> o.printf(Locale.ROOT, "%-24s %s%n", k, text(v)));
        }
        o.flush();
    }

    /** Text rendering: no "Infinity"/"NaN" strings, lists one item per line. */
    static String text(Object v) {
        if (v instanceof Double d) {
            if (Double.isNaN(d)) {
                return "unavailable";
            }
            if (Double.isInfinite(d)) {
                return d > 0 ? "infinite (no finite guarantee)" : "negative infinite";
            }
            return Double.toString(d);
        }
        if (v instanceof List<?> l) {
            StringBuilder sb = new StringBuilder();
            for (Object x : l) {
                sb.append(sb.length() == 0 ? "" : String.format(Locale.ROOT, "%n%-24s ", "")).append("- ").append(text(x));
            }
            return l.isEmpty() ? "(none)" : sb.toString();
        }
        if (v instanceof Map<?, ?> m) {
            StringBuilder sb = new StringBuilder();
            m.forEach((k, x) -> sb.append(sb.length() == 0 ? "" : "; ").append(k).append(" = ").append(text(x)));
            return sb.toString();
        }
        return String.valueOf(v);
    }

    private double requireLower(double v) {
        if (Double.isNaN(v)) {
            throw Checks.fail("--bound", "upper for sampler " + sampler + " (no lower bound implemented)", bound);
        }
        return v;
    }

    static <T> T req(String name, T v) {
        if (v == null) {
            throw Checks.fail(name, "given", "absent");
        }
        return v;
    }

    static void requireAbsent(String name, Object v) {
        if (v != null) {
            throw Checks.fail(name, "absent for this query", v);
        }
    }
}
