package org.dpopt.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleFunction;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.PldAccountant;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.accounting.SelfComposedEvent;
import org.dpopt.linalg.Checks;

/**
 * {@code dpopt account statement}: a plain-English privacy statement of one DP-SGD configuration
 * (in the spirit of TF Privacy's {@code compute_dp_sgd_privacy_statement}, with certified bounds).
 *
 * <p>Contents: the configuration; ε under add/remove-one from the sampler's accountant (PLD for
 * Poisson, with the Rényi-DP value beside it; the sampler-aware ABLQ bounds otherwise, with the value
 * a Poisson assumption would give, labelled as not applying); a certified lower bound; what ε means;
 * the replace-one guarantee by group privacy — if the run is (ε′, δ′)-DP under add/remove then, going
 * through the dataset with the record removed, it is (2ε′, (1 + e^{ε′})δ′)-DP under replace-one, and
 * at the requested δ the statement solves ε′ = ε(δ/(1 + e^{ε′})) — the assumptions (sampling as
 * stated, n public, every iterate released) and what is not covered (hyperparameter tuning, several
 * records per person, side channels).
 */
final class StatementQuery {
    private StatementQuery() {
    }

    /** The public configuration and the bounds a statement reports. */
    private record Facts(int n, int b, double q, double epochs, long steps, double z, String sampler, double delta,
            boolean defaultDelta, double eps, double low, Double rdp, Double ifPoisson, double[] replace,
            String accountant) {
    }

    static Map<String, Object> statement(AccountCommand cmd, long steps, DoubleFunction<DpEvent> family,
            PrivacyAccountant acc) {
        AccountCommand.requireAbsent("--epsilon", cmd.epsilon);
        if (!"upper".equals(cmd.bound)) {
            throw Checks.fail("--bound", "upper for a statement (it reports both bounds)", cmd.bound);
        }
        int n = AccountCommand.req("--dataset-size", cmd.datasetSize);
        int b = AccountCommand.req("--batch-size", cmd.batchSize);
        double z = Checks.positive("--noise-multiplier", AccountCommand.req("--noise-multiplier", cmd.noiseMultiplier));
        boolean defaultDelta = cmd.delta == null;
        // default δ: the largest power of ten strictly below 1/n
        double delta = defaultDelta ? Math.pow(10, -(Math.floor(Math.log10(n)) + 1)) : Checks.delta("--delta", cmd.delta);
        String sampler = cmd.sampler;
        boolean poisson = "poisson".equals(sampler);
        double q = (double) b / n;
        double epochs = cmd.epochs != null ? cmd.epochs : steps * q;

        DpEvent event = family.apply(z);
        PrivacyReport r = acc.report(event, delta);
        Double rdp = null;
        Double ifPoisson = null;
        DpEvent poissonEvent = new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(z)), steps);
        if (poisson) {
            rdp = new RdpAccountant().epsilon(event, delta);
        } else {
            ifPoisson = new PldAccountant().epsilon(poissonEvent, delta);
        }
        double[] replace = replaceOne(acc, event, delta);
        Facts f = new Facts(n, b, q, epochs, steps, z, sampler, delta, defaultDelta, r.epsilon(), r.epsilonLower(), rdp,
                ifPoisson, replace, acc.name());
        return layout(f, acc, r);
    }

    /** The statement's keys, in their fixed order. */
    private static Map<String, Object> layout(Facts f, PrivacyAccountant acc, PrivacyReport r) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("statement", text(f));
        out.put("epsilon", f.eps());
        out.put("epsilon_meaning", AccountCommand.UPPER_MEANING + " under add/remove-one");
        out.put("epsilon_lower", f.low());
        if (f.rdp() != null) {
            out.put("epsilon_rdp", f.rdp());
        }
        if (f.ifPoisson() != null) {
            out.put("epsilon_if_poisson", f.ifPoisson());
            out.put("epsilon_if_poisson_meaning", "what a Poisson-sampling analysis would give (PLD); it does NOT apply "
                    + "to sampler " + f.sampler());
        }
        out.put("delta", f.delta());
        out.put("delta_is_default", f.defaultDelta());
        out.put("epsilon_replace_one", f.replace()[0]);
        out.put("delta_replace_one", f.replace()[1]);
        out.put("replace_one_rule", "group privacy: add/remove (eps', delta') gives replace-one (2 eps', (1 + e^eps') delta')");
        out.put("noise_multiplier", f.z());
        out.put("dataset_size", f.n());
        out.put("batch_size", f.b());
        out.put("epochs", f.epochs());
        out.put("bound", "upper");
        out.put("accountant", acc.name());
        out.put("sampler", f.sampler());
        out.put("relation", acc.relation().toString());
        out.put("steps", f.steps());
        if ("poisson".equals(f.sampler()) || "truncated-poisson".equals(f.sampler())) {
            out.put("sampling_rate", f.q());
        }
        out.put("assumptions", assumptions(f));
        out.put("not_covered", notCovered());
        out.put("notes", r.notes());
        return out;
    }

    private static List<String> assumptions(Facts f) {
        List<String> assumptions = new ArrayList<>();
        assumptions.add(samplingAssumption(f.sampler(), f.q()));
        assumptions.add("the dataset size n = " + f.n() + " is public (treated as known to the adversary); batch sums "
                + "are divided by the public constant B = " + f.b() + ", never by the realized batch size");
        assumptions.add("every per-example gradient is clipped to norm C before summing, and Gaussian noise of standard "
                + "deviation z*C = " + f.z() + "*C is added to each sum");
        assumptions.add("ALL intermediate iterates (every noisy gradient, every checkpoint) may be released; the "
                + "guarantee covers them, not only the last model");
        return assumptions;
    }

    private static List<String> notCovered() {
        List<String> notCovered = new ArrayList<>();
        notCovered.add("hyperparameter tuning: every run tried on the data spends privacy budget, and choosing among runs "
                + "is not accounted here");
        notCovered.add("people with several records: this is record-level privacy; k records of one person get "
                + "group privacy over k records, not this epsilon");
        notCovered.add("data-dependent choices made outside the run (preprocessing, feature selection, the clipping norm "
                + "if tuned on the data)");
        notCovered.add("implementation side channels (timing, floating-point artefacts of the noise)");
        return notCovered;
    }

    /**
     * {ε_replace, δ_replace} at the requested δ: the smallest ε′ found with ε_acc(δ/(1 + e^{ε′})) ≤ ε′,
     * by the increasing fixed-point iteration from ε′ = ε_acc(δ/2), then (2ε′, δ).
     */
    static double[] replaceOne(PrivacyAccountant acc, DpEvent event, double delta) {
        double e = acc.epsilon(event, delta / 2);
        for (int it = 0; it < 20 && Double.isFinite(e); it++) {
            double next = acc.epsilon(event, delta / (1 + Math.exp(e)));
            if (next <= e) {
                return new double[] {2 * e, delta};
            }
            e = next * (1 + 1e-9) + 1e-12;
        }
        return new double[] {Double.POSITIVE_INFINITY, delta};
    }

    private static String samplingAssumption(String sampler, double q) {
        switch (sampler) {
            case "poisson":
                return "Poisson sampling: each step includes each record independently with probability q = " + fmt(q)
                        + " (a shuffled or fixed order does NOT satisfy this)";
            case "truncated-poisson":
                return "truncated Poisson sampling: Poisson batches with q = " + fmt(q) + ", cut to the maximum batch size "
                        + "at random; the chance of any cut is charged to delta";
            case "deterministic":
                return "fixed batches in a fixed order, each record in exactly one batch per epoch";
            default:
                return sampler + ": a random order, each record in exactly one batch per epoch (the upper bound does not "
                        + "credit the shuffle; the lower bound is what the shuffle can give at best)";
        }
    }

    private static String text(Facts f) {
        int n = f.n();
        double eps = f.eps();
        double[] replace = f.replace();
        String sampler = f.sampler();
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "DP-SGD on %d records (a public number), batches of %s size %d (%s), %s epochs "
                + "= %d steps, noise multiplier %s. ", n, sampler.contains("poisson") ? "expected" : "exact", f.b(),
                samplerWords(sampler, f.q()), fmt(f.epochs()), f.steps(), fmt(f.z())));
        s.append(String.format(Locale.ROOT, "Guarantee for adding or removing one record: (epsilon = %s, delta = %s)-DP "
                + "(certified upper bound, %s accountant)", fmt(eps), fmt(f.delta()), f.accountant()));
        if (f.defaultDelta()) {
            s.append(" [delta defaulted to the largest power of ten below 1/n]");
        }
        s.append(String.format(Locale.ROOT, "; the true epsilon of this mechanism is at least %s", fmt(f.low())));
        if (f.rdp() != null) {
            s.append(String.format(Locale.ROOT, "; the Renyi-DP accountant gives epsilon = %s (also valid, looser)", fmt(f.rdp())));
        }
        if (f.ifPoisson() != null) {
            s.append(String.format(Locale.ROOT, "; a Poisson-sampling analysis would give %s, which does not apply to this "
                    + "sampler", fmt(f.ifPoisson())));
        }
        s.append(". ");
        s.append(String.format(Locale.ROOT, "Meaning: whatever an adversary concludes from everything the run releases, "
                + "the probability of any conclusion changes by at most a factor e^epsilon = %s when one record is added or "
                + "removed, except with probability at most delta. ", fmt(Math.exp(Math.min(eps, 700)))));
        s.append(String.format(Locale.ROOT, "Replacing one record by another: (epsilon = %s, delta = %s)-DP, by group "
                + "privacy over the dataset with the record removed. ", fmt(replace[0]), fmt(replace[1])));
        s.append("Assumes the sampling described, a public dataset size, per-example clipping, and covers every released "
                + "iterate. Not covered: hyperparameter tuning on the data, several records per person, and implementation "
                + "side channels.");
        return s.toString();
    }

    private static String samplerWords(String sampler, double q) {
        switch (sampler) {
            case "poisson":
                return "Poisson sampling, rate " + fmt(q);
            case "truncated-poisson":
                return "truncated Poisson sampling, rate " + fmt(q);
            case "deterministic":
                return "fixed order";
            default:
                return sampler.replace('-', ' ');
        }
    }

    static String fmt(double v) {
        if (Double.isInfinite(v)) {
            return "infinite";
        }
        if (Double.isNaN(v)) {
            return "unavailable";
        }
        if (v != 0 && (Math.abs(v) < 1e-3 || Math.abs(v) >= 1e6)) {
            return String.format(Locale.ROOT, "%.3g", v);
        }
        return String.format(Locale.ROOT, "%.4g", v);
    }
}
