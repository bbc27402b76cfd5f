package org.dpopt.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpopt.accounting.AblqAccountant;
import org.dpopt.accounting.Bound;
import org.dpopt.accounting.Calibration;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.linalg.Checks;

/**
 * The {@code epsilon}, {@code delta} and {@code calibrate} queries of {@code dpopt account}: each reads
 * its flags, asks the accountant, and lays out the answer with its meaning (a certified upper bound, or
 * with {@code --bound lower} an optimistic lower bound next to the guarantee) and the common keys.
 */
final class AccountQueries {

    private final AccountCommand cmd;

    AccountQueries(AccountCommand cmd) {
        this.cmd = cmd;
    }

    private double noise() {
        return Checks.positive("--noise-multiplier", AccountCommand.req("--noise-multiplier", cmd.noiseMultiplier));
    }

    Map<String, Object> epsilon(PrivacyAccountant acc, AccountPlan plan, boolean lower) {
        AccountCommand.requireAbsent("--epsilon", cmd.epsilon);
        double z = noise();
        double d = Checks.delta("--delta", AccountCommand.req("--delta", cmd.delta));
        PrivacyReport r = acc.report(plan.family().apply(z), d);
        Map<String, Object> out = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        if (lower) {
            out.put("epsilon", requireLower(r.epsilonLower()));
            out.put("epsilon_meaning", AccountCommand.LOWER_MEANING);
            out.put("epsilon_upper", r.epsilon());
            notes.add("epsilon is the optimistic lower bound; epsilon_upper is the certified upper bound");
        } else {
            out.put("epsilon", r.epsilon());
            out.put("epsilon_meaning", AccountCommand.UPPER_MEANING);
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

    Map<String, Object> delta(PrivacyAccountant acc, AccountPlan plan, boolean lower) {
        AccountCommand.requireAbsent("--delta", cmd.delta);
        double z = noise();
        double e = Checks.nonNegative("--epsilon", AccountCommand.req("--epsilon", cmd.epsilon));
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

    Map<String, Object> calibrate(PrivacyAccountant acc, AccountPlan plan, boolean lower) {
        AccountCommand.requireAbsent("--noise-multiplier", cmd.noiseMultiplier);
        double e = Checks.epsilon("--epsilon", AccountCommand.req("--epsilon", cmd.epsilon));
        if (e > AccountCommand.MAX_CALIBRATION_EPSILON) {
            throw Checks.fail("--epsilon", "at most " + AccountCommand.MAX_CALIBRATION_EPSILON + " for calibration "
                    + "(larger budgets are not meaningful guarantees)", e);
        }
        double d = Checks.delta("--delta", AccountCommand.req("--delta", cmd.delta));
        double z = calibrated(acc, plan, lower, e, d);
        Map<String, Object> out = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        out.put("noise_multiplier", z);
        if (lower) {
            out.put("noise_multiplier_meaning", "OPTIMISTIC: the noise truly needed is at least this; not a privacy "
                    + "guarantee");
            out.put("epsilon", ((AblqAccountant) acc).epsilonLower(plan.family().apply(z), d));
            out.put("epsilon_meaning", AccountCommand.LOWER_MEANING);
            out.put("epsilon_upper", acc.epsilon(plan.family().apply(z), d));
            notes.add("noise_multiplier meets the target only under the optimistic lower bound");
        } else {
            PrivacyReport r = acc.report(plan.family().apply(z), d);
            out.put("noise_multiplier_meaning", "the smallest noise multiplier found whose certified epsilon is at most "
                    + "target_epsilon");
            out.put("epsilon", r.epsilon());
            out.put("epsilon_meaning", AccountCommand.UPPER_MEANING);
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

    /** The calibrated noise multiplier; an unreachable budget is refused as a bad --epsilon. */
    private double calibrated(PrivacyAccountant acc, AccountPlan plan, boolean lower, double e, double d) {
        if (cmd.progress && cmd.quiet) {
            throw Checks.fail("--progress", "absent with --quiet", true);
        }
        ProgressBar bar = new ProgressBar(cmd.output.err(), ProgressBar.wanted(cmd.progress, cmd.quiet),
                "accountant evaluations");
        long[] evaluations = {0};
        java.util.function.DoubleFunction<org.dpopt.accounting.DpEvent> family = z -> {
            bar.count(++evaluations[0]);
            return plan.family().apply(z);
        };
        try {
            if (!lower) {
                return Calibration.noiseMultiplier(acc, family, e, d, 1e-6);
            }
            if (acc instanceof AblqAccountant ablq) {
                return ablq.noiseMultiplier(family, e, d, Bound.LOWER, 1e-6);
            }
            throw Checks.fail("--bound", "upper for calibration with --accountant " + acc.name()
                    + " (the optimistic calibration is implemented for ablq)", cmd.bound);
        } catch (IllegalArgumentException ex) {
            if (ex.getMessage() != null && ex.getMessage().startsWith("privacy budget must be reachable")) {
                throw Checks.fail("--epsilon", "reachable at --delta " + d + " with sampler " + cmd.sampler
                        + " for some noise multiplier", e);
            }
            throw ex;
        } finally {
            bar.finish();
        }
    }

    /** The keys every account query ends with, in a fixed order. */
    private void common(Map<String, Object> out, PrivacyAccountant acc, AccountPlan plan, boolean lower,
            List<String> notes) {
        out.put("bound", lower ? "lower" : "upper");
        out.put("accountant", acc.name());
        out.put("sampler", cmd.sampler);
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

    private double requireLower(double v) {
        if (Double.isNaN(v)) {
            throw Checks.fail("--bound", "upper for sampler " + cmd.sampler + " (no lower bound implemented)", cmd.bound);
        }
        return v;
    }
}
