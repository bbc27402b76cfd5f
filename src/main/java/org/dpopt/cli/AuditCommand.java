package org.dpopt.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpopt.audit.AuditResult;
import org.dpopt.audit.AuditTarget;
import org.dpopt.audit.Audits;
import org.dpopt.audit.EpsilonLowerBound;
import org.dpopt.audit.ErrorCounts;
import org.dpopt.audit.OptimizerAudit;
import org.dpopt.bench.Plots;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.core.Mutation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dpopt audit}: an empirical privacy audit of one optimizer (or one deliberately broken
 * variant of it) on a worst-case neighbouring pair; prints the claimed ε, the Clopper–Pearson lower
 * bound ε_lower at confidence 1 − α with the raw counts behind it, the Gaussian-DP estimate and the
 * ledger test. The runs are seeded research-mode runs (an audit is a test; nothing it produces is
 * private).
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = "Empirical privacy audit: run an optimizer on two neighbouring datasets, attack it, "
                + "and bound epsilon from below.")
final class AuditCommand implements Callable<Integer> {

    /** The note every audit output carries. */
    static final String NOTE = "audit runs are seeded research-mode runs on synthetic neighbouring datasets; "
            + "epsilon_lower holds with probability >= confidence; a correct implementation has epsilon_lower <= "
            + "epsilon";

    @Option(names = "--algorithm", required = true, description = "Algorithm to audit.")
    String algorithm;
    @Option(names = "--epsilon", description = "Claimed epsilon the optimizer is calibrated to (default: the "
            + "design's, 4 for most and 1 for the designs whose mutants break the guarantee measurably only at small "
            + "epsilon; delta is 1e-5).")
    Double epsilon;
    @Option(names = "--runs", defaultValue = "2000", description = "Total runs, even, >= 8: half on each dataset, "
            + "each half split into a selection and an evaluation half (default 2000).")
    int runs;
    @Option(names = "--mutant", defaultValue = "none", description = "Audit a deliberately broken variant: none, "
            + "half-noise, half-sensitivity, no-clipping, realized-batch, half-rate-accounting, shuffle-as-poisson, objpert-beta, "
            + "rnm-half-scale.")
    String mutant;
    @Option(names = "--design", description = "Audit configuration (default: the algorithm's first one that runs "
            + "the mutant).")
    String design;
    @Option(names = "--alpha", defaultValue = "0.05", description = "Error probability of every bound (default 0.05).")
    double alpha;
    @Option(names = "--seed", defaultValue = "1", description = "Audit seed (default 1).")
    long seed;
    @Mixin
    Output output;
    @Option(names = "--out", description = "Directory for the JSON and the plots (created if absent).")
    Path out;
    @Option(names = "--progress", description = "Show the progress bar even when stderr is not a terminal.")
    boolean progress;
    @Option(names = "--quiet", description = "No progress bar.")
    boolean quiet;

    /** Most audit runs: the validation's largest audit. */
    static final int MAX_RUNS = 1_000_000;

    @Override
    public Integer call() {
        // every check before any run, so that bad input writes nothing
        if (!Audits.algorithms().contains(algorithm)) {
            throw Checks.fail("--algorithm", "one of " + Audits.algorithms(), algorithm);
        }
        if (epsilon != null) {
            Checks.epsilon("--epsilon", epsilon);
            TrainLimits.epsilon(epsilon);
        }
        Checks.atLeast("--runs", runs, 8);
        if (runs > MAX_RUNS) {
            throw Checks.fail("--runs", "at most " + MAX_RUNS + " (more would run for hours and hold every run's "
                    + "statistics in memory)", runs);
        }
        if (runs % 2 != 0) {
            throw Checks.fail("--runs", "even (half on each dataset)", runs);
        }
        Checks.openUnit("--alpha", alpha);
        Mutation m = Mutation.byName(mutant);
        Audits.Design d = design != null ? Audits.design(algorithm, design) : Audits.design(algorithm, m);
        if (m != Mutation.NONE && !d.mutants().contains(m)) {
            throw Checks.fail("--mutant", "one the design " + d.name() + " runs " + d.mutants().stream()
                    .map(Mutation::cliName).sorted().toList(), mutant);
        }
        if (out != null) {
            checkOut(out);
        }
        if (progress && quiet) {
            throw Checks.fail("--progress", "absent with --quiet", true);
        }
        if (epsilon == null) {
            epsilon = d.defaultEpsilon();
        }
        AuditTarget target = d.at(epsilon);
        PrintWriter err = output.err();
        boolean show = !quiet && (progress || System.console() != null);
        ProgressBar bar = new ProgressBar(err, show, "runs");
        AuditResult r = OptimizerAudit.run(target, m, new OptimizerAudit.Settings(runs, alpha, seed), bar);
        bar.finish();
        Map<String, Object> o = json(r);
        o.put("budget_epsilon", epsilon);
        if (out != null) {
            write(r, o);
        }
        output.print(o, w -> {
            w.println(r);
            Output.table(w, o, 28);
        });
        return 0;
    }

    private static void checkOut(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        if (Files.exists(abs)) {
            if (!Files.isDirectory(abs)) {
                throw Checks.fail("--out", "a directory", dir);
            }
            if (!Files.isWritable(abs)) {
                throw Checks.fail("--out", "writable", dir);
            }
        } else {
            Path parent = abs.getParent();
            if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
                throw Checks.fail("--out", "an existing directory or one that can be created in an existing writable "
                        + "directory", dir);
            }
        }
    }

    /** The result as a JSON object, keys in a stable order; non-finite numbers as null with a flag. */
    static Map<String, Object> json(AuditResult r) {
        Map<String, Object> o = new LinkedHashMap<>();
        EpsilonLowerBound.Evaluation cp = r.clopperPearson();
        EpsilonLowerBound.Evaluation gdp = r.gaussianDp();
        o.put("epsilon", r.epsilon());
        o.put("epsilon_lower", cp.epsilon());
        o.put("confidence", r.confidence());
        o.put("runs", r.runs());
        o.put("mutant", r.mutant().cliName());
        o.put("counts", counts(cp.counts()));
        o.put("tightness", r.tightness());
        putThreshold(o, "threshold", cp.threshold());
        o.put("statistic", r.statistic());
        o.put("mu_lower", gdp.mu());
        o.put("epsilon_lower_gdp", gdp.epsilonGdp());
        o.put("passed", r.passed());
        o.put("ledger_consistent", r.ledgerConsistent());
        o.put("flagged", r.flagged());
        o.put("delta", r.delta());
        o.put("alpha", r.alpha());
        o.put("rate_alpha", r.alpha() / 2);
        o.put("fpr_upper", cp.fprUpper());
        o.put("fnr_upper", cp.fnrUpper());
        o.put("direction", cp.direction().toString());
        o.put("runs_per_dataset", r.runs() / 2);
        o.put("evaluation_runs_per_dataset", r.evaluationRunsPerSide());
        o.put("canaries_per_run", r.canaries());
        o.put("evaluation_trials_per_dataset", r.evaluationTrialsPerSide());
        o.put("fixed_test", !Double.isNaN(r.fixedThreshold()));
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("mu_lower", gdp.mu());
        g.put("mu_claimed", r.muClaimed());
        g.put("epsilon_lower", gdp.epsilonGdp());
        putThreshold(g, "threshold", gdp.threshold());
        g.put("counts", counts(gdp.counts()));
        g.put("fpr_upper", gdp.fprUpper());
        g.put("fnr_upper", gdp.fnrUpper());
        g.put("note", "Nasr et al. 2023: a lower bound on epsilon if the trade-off curve is Gaussian");
        o.put("gdp", g);
        Map<String, Object> l = new LinkedHashMap<>();
        l.put("consistent", r.ledgerConsistent());
        l.put("epsilon_lower", r.ledgerTest().epsilon());
        l.put("noise_scale_upper", r.ledgerTest().scaleUpper());
        l.put("event", r.ledger());
        l.put("note", "the gdp counts tested against the recorded ledger's whole privacy profile, its noise scaled by "
                + "s; consistent means s = 1 is not rejected");
        o.put("ledger", l);
        o.put("algorithm", r.algorithm());
        o.put("design", r.design());
        o.put("white_box", r.whiteBox());
        o.put("relation", r.relation());
        o.put("canary", r.canary());
        o.put("accountant", r.accountant());
        o.put("seed", r.seed());
        o.put("seconds", r.seconds());
        o.put("note", NOTE);
        return o;
    }

    private static Map<String, Object> counts(ErrorCounts c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("true_positives", c.truePositives());
        m.put("false_positives", c.falsePositives());
        m.put("true_negatives", c.trueNegatives());
        m.put("false_negatives", c.falseNegatives());
        return m;
    }

    /** A threshold of −∞ (every run declared "canary present") is written as null with a flag. */
    private static void putThreshold(Map<String, Object> m, String key, double t) {
        m.put(key, Json.finiteOrNull(t));
        if (t == Double.NEGATIVE_INFINITY) {
            m.put(key + "_minus_infinity", true);
        }
    }

    private void write(AuditResult r, Map<String, Object> o) {
        try {
            Files.createDirectories(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + out + ": " + e.getMessage(), e);
        }
        String stem = "audit-" + r.algorithm() + "-" + r.design()
                + (r.mutant() == Mutation.NONE ? "" : "-" + r.mutant().cliName()) + "-eps" + fmt(epsilon);
        OutputPaths.writeAtomically(out.resolve(stem + ".json"), Json.write(o) + "\n");
        double[][] emp = r.empiricalTradeOff(200);
        double[] fx = new double[emp.length];
        double[] fy = new double[emp.length];
        for (int i = 0; i < emp.length; i++) {
            fx[i] = emp[i][0];
            fy[i] = emp[i][1];
        }
        int k = 101;
        double[] ax = new double[k];
        double[] claimed = new double[k];
        double[] ledger = new double[k];
        double e = Math.exp(r.epsilon());
        for (int i = 0; i < k; i++) {
            double a = i / (k - 1.0);
            ax[i] = a;
            claimed[i] = Math.max(0, Math.max(1 - r.delta() - e * a, (1 - r.delta() - a) / e));
            ledger[i] = r.family().tradeOff(a, 1);
        }
        List<Plots.Series> s = new ArrayList<>();
        s.add(new Plots.Series("observed (evaluation half)", fx, fy));
        s.add(new Plots.Series(String.format("claimed (%.3f, %.0e)-DP", r.epsilon(), r.delta()), ax, claimed));
        s.add(new Plots.Series("recorded ledger", ax, ledger));
        Plots.line(out.resolve(stem + "-tradeoff.png"), subject(r) + ": trade-off, " + r.runs() + " runs",
                "false-positive rate", "false-negative rate", s, false, false);
        int pts = 10;
        double[] n = new double[pts];
        double[] lo = new double[pts];
        double[] cl = new double[pts];
        for (int i = 0; i < pts; i++) {
            int runsAt = Math.max(8, (int) Math.round(r.runs() * (i + 1.0) / pts) / 4 * 4);
            n[i] = runsAt;
            lo[i] = r.epsilonLowerAt(runsAt);
            cl[i] = r.epsilon();
        }
        Plots.line(out.resolve(stem + "-epsilon-vs-runs.png"), subject(r) + ": epsilon_lower ("
                + Math.round(100 * r.confidence()) + "%) vs runs", "runs", "epsilon",
                List.of(new Plots.Series("epsilon_lower", n, lo), new Plots.Series("claimed epsilon", n, cl)),
                false, false);
    }

    /** What was audited, for plot titles: the algorithm, and the mutant if any. */
    private static String subject(AuditResult r) {
        return r.algorithm() + (r.mutant() == Mutation.NONE ? "" : " (mutant " + r.mutant().cliName() + ")");
    }

    private static String fmt(double x) {
        return x == Math.rint(x) ? Long.toString((long) x) : Double.toString(x);
    }
}
