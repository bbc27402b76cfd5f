package org.dpopt.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.dpopt.accounting.AblqAccountant;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.linalg.Checks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

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
    @Mixin
    Output output;
    @Option(names = "--progress", description = "calibrate: show the count of accountant evaluations on stderr even "
            + "when it is not a terminal.") boolean progress;
    @Option(names = "--quiet", description = "No progress output.") boolean quiet;

    @Override
    public Integer call() {
        String q = validQuery();
        boolean lower = validBound();
        AccountPlan plan = AccountPlan.of(this, q);
        PrivacyAccountant acc = accountantFor();
        if (lower && acc instanceof RdpAccountant) {
            throw Checks.fail("--bound", "upper for --accountant rdp (RDP has no lower bound)", bound);
        }
        Optional<String> unsupported = acc.unsupportedReason(plan.family().apply(1.0));
        if (unsupported.isPresent()) {
            throw Checks.fail("--accountant", "one that supports sampler " + sampler + " (" + unsupported.get() + ")",
                    acc.name());
        }
        AccountQueries queries = new AccountQueries(this);
        Map<String, Object> out = switch (q) {
            case "epsilon" -> queries.epsilon(acc, plan, lower);
            case "delta" -> queries.delta(acc, plan, lower);
            case "calibrate" -> queries.calibrate(acc, plan, lower);
            default -> StatementQuery.statement(this, plan.steps(), plan.family(), acc);
        };
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

    // ------------------------------------------------------------------ accountant and output

    private PrivacyAccountant accountantFor() {
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

    private void print(Map<String, Object> out) {
        output.print(out, o -> out.forEach((k, v) -> o.printf(Locale.ROOT, "%-24s %s%n", k, text(v))));
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
