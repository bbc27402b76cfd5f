package org.dpopt.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpopt.cli.Main;
import org.dpopt.optim.core.Mutation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The large audits ({@code mvn -B -Pvalidation test -Dtest=AuditValidationTest}): ≥ 10⁴ runs of every
 * optimizer at ε ∈ {1, 4}, the size at which each mutant is caught, and the plots. Writes CSV and PNG to
 * {@code validation/results/auditing/}; {@code validation/auditing.md} records them.
 *
 * <p>Assertions: every honest audit passes both tests (each with probability ≥ 1 − α = 0.95 for a
 * correct implementation, so each honest assertion has a false-failure probability ≤ 0.1; seeds fixed);
 * every mutant is flagged by some test at the largest size (a power statement, no chance bound).
 */
@Tag("slow")
class AuditValidationTest {
    static final Path OUT = Path.of("validation/results/auditing");
    static final double ALPHA = 0.05;
    static final long SEED = 1;

    static int largeRuns(String algorithm) {
        return switch (algorithm) {
            case "dp-sgd", "nsgd" -> 100_000;
            case "phased-sgd", "noisy-frank-wolfe", "objective-perturbation" -> 40_000;
            default -> 10_000;
        };
    }

    static final int[] SIZES = {2_000, 4_000, 10_000, 20_000, 40_000, 100_000};

    private static String row(Object... v) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(v[i] instanceof Double d ? String.format(Locale.ROOT, "%.4f", d) : String.valueOf(v[i]));
        }
        return sb.append('\n').toString();
    }

    private static final java.util.Map<String, AuditResult> CACHE = new java.util.HashMap<>();

    private static AuditResult audit(Audits.Design d, double eps, Mutation m, int runs) {
        return CACHE.computeIfAbsent(d.algorithm() + "/" + d.name() + "/" + eps + "/" + m + "/" + runs, k -> {
            AuditResult r = OptimizerAudit.run(d.at(eps), m, new OptimizerAudit.Settings(runs, ALPHA, SEED),
                    OptimizerAudit.Progress.NONE);
            System.out.println(r + String.format(Locale.ROOT, " [%.1fs]", r.seconds()));
            return r;
        });
    }

    /** The single-canary configurations (the many-canary ones are audited at CI size and below). */
    private static List<Audits.Design> singleCanary(String algorithm) {
        List<Audits.Design> out = new ArrayList<>();
        for (Audits.Design d : Audits.designs(algorithm)) {
            if (d.at(4).pair().canaries() == 1 && !d.name().endsWith("-tail")) {
                out.add(d);
            }
        }
        return out;
    }

    /**
     * The many-canary mutants that ε_lower does not catch at 2000 runs, with more runs (each next to the
     * honest audit of the same size): the sizes recorded in {@code validation/auditing.md} §0.
     */
    @Test
    void manyCanaryMutantsWithMoreRuns() throws IOException {
        Object[][] cases = {{"dp-sgd", "multi-canary-poisson", Mutation.HALF_RATE_ACCOUNTING, 4.0, 8_000},
            {"prox-sgd", "multi-canary-poisson", Mutation.HALF_NOISE, 4.0, 8_000},
            {"pg-mirror-descent", "multi-canary-parts", Mutation.HALF_NOISE, 4.0, 8_000}};
        mutantsNextToTheirHonestAudits(cases, "multi-canary-large.csv");
    }

    @Test
    void everyOptimizerWithManyRuns() throws IOException {
        Files.createDirectories(OUT);
        StringBuilder csv = new StringBuilder(row("algorithm", "design", "statistic", "white_box", "epsilon", "runs",
                "alpha", "epsilon_lower", "tightness", "mu_lower", "mu_claimed", "epsilon_lower_gdp",
                "epsilon_lower_ledger", "noise_scale_upper", "ledger_consistent", "seconds"));
        List<String> failures = new ArrayList<>();
        for (String a : Audits.algorithms()) {
            for (Audits.Design d : singleCanary(a)) {
                for (double eps : new double[] {1, 4}) {
                    AuditResult r = audit(d, eps, Mutation.NONE, largeRuns(a));
                    csv.append(row(a, d.name(), r.statistic(), r.whiteBox(), eps, r.runs(), ALPHA, r.epsilonLower(),
                            r.tightness(), r.gaussianDp().mu(), r.muClaimed(), r.gaussianDp().epsilonGdp(),
                            r.ledgerTest().epsilon(), r.ledgerTest().scaleUpper(), r.ledgerConsistent(), r.seconds()));
                    if (r.flagged()) {
                        failures.add(r.toString());
                    }
                }
            }
        }
        Files.writeString(OUT.resolve("honest.csv"), csv);
        assertTrue(failures.isEmpty(), "honest audits flagged: " + failures);
    }

    /**
     * For each mutant and ε, the smallest audit size (from {@link #SIZES}, prefixes of one large audit:
     * run i has the same seed at every size) at which Clopper–Pearson flags it (ε_lower &gt; ε) and at which
     * the ledger test does, next to the honest audit of the same configuration at the same size.
     */
    @Test
    void sizeAtWhichEachMutantIsCaught() throws IOException {
        Files.createDirectories(OUT);
        StringBuilder csv = new StringBuilder(row("algorithm", "design", "mutant", "epsilon", "runs", "epsilon_lower",
                "epsilon_lower_honest", "epsilon_lower_ledger", "ledger_consistent", "honest_flagged", "cp_flags",
                "ledger_flags"));
        StringBuilder summary = new StringBuilder(row("algorithm", "design", "mutant", "epsilon",
                "runs_caught_by_clopper_pearson", "runs_caught_by_ledger_test", "largest_runs_tried"));
        List<String> notCaught = new ArrayList<>();
        for (String a : Audits.algorithms()) {
            for (Audits.Design d : singleCanary(a)) {
                for (Mutation m : d.mutants()) {
                    for (double eps : new double[] {1, 4}) {
                        int big = largeRuns(a);
                        AuditResult honest = audit(d, eps, Mutation.NONE, big);
                        AuditResult mutant = audit(d, eps, m, big);
                        String cpAt = "not caught";
                        String ledgerAt = "not caught";
                        for (int n : SIZES) {
                            if (n > big) {
                                break;
                            }
                            AuditResult h = honest.prefix(n);
                            AuditResult r = mutant.prefix(n);
                            boolean cp = !r.passed();
                            boolean lf = !r.ledgerConsistent();
                            csv.append(row(a, d.name(), m.cliName(), eps, n, r.epsilonLower(), h.epsilonLower(),
                                    r.ledgerTest().epsilon(), r.ledgerConsistent(), h.flagged(), cp, lf));
                            if (cp && cpAt.equals("not caught")) {
                                cpAt = Integer.toString(n);
                            }
                            if (lf && ledgerAt.equals("not caught")) {
                                ledgerAt = Integer.toString(n);
                            }
                            assertFalse(h.flagged(), "honest flagged at " + n + ": " + h);
                        }
                        summary.append(row(a, d.name(), m.cliName(), eps, cpAt, ledgerAt, big));
                        if (!mutant.flagged()) {
                            notCaught.add(a + " " + m.cliName() + " eps=" + eps);
                        }
                    }
                }
            }
        }
        Files.writeString(OUT.resolve("mutants-by-size.csv"), csv);
        Files.writeString(OUT.resolve("mutants.csv"), summary);
        assertTrue(notCaught.isEmpty(), "mutants not caught at the largest size: " + notCaught);
    }

    /**
     * The two mutants Clopper–Pearson does not catch with the sizes of {@link #sizeAtWhichEachMutantIsCaught}:
     * half-rate-accounting at ε = 4 (10⁶ runs) and prox-sgd's half-noise (10⁵ runs), each next to the
     * honest audit of the same size.
     */
    @Test
    void stubbornMutantsWithMoreRuns() throws IOException {
        Object[][] cases = {{"dp-sgd", "aligned-full-batch", Mutation.HALF_RATE_ACCOUNTING, 4.0, 1_000_000},
            {"prox-sgd", "isolated-poisson", Mutation.HALF_NOISE, 4.0, 100_000},
            {"prox-sgd", "isolated-poisson", Mutation.HALF_NOISE, 1.0, 100_000}};
        mutantsNextToTheirHonestAudits(cases, "mutants-large.csv");
    }

    /** The plots of validation/auditing.md, made by the CLI itself (the commands are recorded there). */
    @Test
    void plotsThroughTheCli() {
        String[][] commands = {
            {"--algorithm", "dp-sgd", "--design", "aligned-full-batch", "--epsilon", "4", "--runs", "100000"},
            {"--algorithm", "dp-sgd", "--design", "aligned-full-batch", "--epsilon", "4", "--runs", "20000",
                "--mutant", "half-noise"},
            {"--algorithm", "dp-sgd", "--design", "isolated-poisson", "--epsilon", "4", "--runs", "100000"},
            {"--algorithm", "dp-sgd", "--design", "aligned-shuffle", "--epsilon", "4", "--runs", "20000", "--mutant",
                "shuffle-as-poisson"},
            {"--algorithm", "noisy-frank-wolfe", "--design", "one-step", "--epsilon", "4", "--runs", "40000"},
            {"--algorithm", "phased-sgd", "--design", "first-phase", "--epsilon", "4", "--runs", "40000"},
        };
        for (String[] c : commands) {
            List<String> args = new ArrayList<>(List.of("audit", "--quiet", "--json", "--out", OUT.toString()));
            args.addAll(List.of(c));
            CommandLine cl = Main.commandLine();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            cl.setOut(new PrintWriter(out));
            cl.setErr(new PrintWriter(err));
            assertEquals(0, cl.execute(args.toArray(String[]::new)), err.toString());
            System.out.println(out.toString().strip());
        }
    }

    /**
     * Each case {algorithm, design, mutant, ε, runs}: the honest audit must pass and the mutant be flagged
     * at that size; both ε_lower go to the CSV file.
     */
    private static void mutantsNextToTheirHonestAudits(Object[][] cases, String file) throws IOException {
        Files.createDirectories(OUT);
        StringBuilder csv = new StringBuilder(row("algorithm", "design", "mutant", "epsilon", "runs", "epsilon_lower",
                "epsilon_lower_honest", "honest_flagged", "cp_flags", "ledger_flags"));
        for (Object[] c : cases) {
            Audits.Design d = Audits.design((String) c[0], (String) c[1]);
            double eps = (Double) c[3];
            int n = (Integer) c[4];
            AuditResult h = audit(d, eps, Mutation.NONE, n);
            AuditResult r = audit(d, eps, (Mutation) c[2], n);
            csv.append(row(c[0], c[1], ((Mutation) c[2]).cliName(), eps, n, r.epsilonLower(), h.epsilonLower(),
                    h.flagged(), !r.passed(), !r.ledgerConsistent()));
            assertFalse(h.flagged(), "honest flagged: " + h);
            assertTrue(r.flagged(), "mutant not flagged: " + r);
        }
        Files.writeString(OUT.resolve(file), csv);
    }
}
