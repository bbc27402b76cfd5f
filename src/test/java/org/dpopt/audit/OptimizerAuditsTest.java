package org.dpopt.audit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.dpopt.optim.core.Mutation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fast audits CI runs: every optimizer at ε ∈ {1, 4} on its default configuration, every other
 * configuration at ε = 4, and every mutant at ε = 4 on the configuration that exposes it, with the same
 * number of runs (and the same seed) as the honest run it is compared with.
 *
 * <p><b>False failures.</b> An honest audit fails if ε_lower &gt; ε (probability ≤ α = 0.05 for a
 * correct implementation) or if the ledger test rejects (probability ≤ α), so each honest test has a
 * false-failure probability ≤ 2α = 0.1. That bound is loose: the Clopper–Pearson bound is far below ε
 * at these sizes (tightness ≤ 0.4, see {@code validation/auditing.md}), and the ledger test's margins are
 * printed for every run. The seeds are fixed (seed 1, never tuned), so the outcome is deterministic.
 * A mutant test fails if the mutant is not flagged: that is a lack of power, measured in the validation
 * audits, not chance alone.
 */
class OptimizerAuditsTest {
    static final double ALPHA = 0.05;
    static final long SEED = 1;

    /** Runs per configuration: the cheapest size at which the configuration's mutants are flagged. */
    static int runs(String algorithm) {
        return switch (algorithm) {
            case "nsgd" -> 4000;
            default -> 2000;
        };
    }

    private static final Map<String, AuditResult> CACHE = new ConcurrentHashMap<>();

    static AuditResult audit(String algorithm, String design, double epsilon, Mutation m) {
        String key = algorithm + "/" + design + "/" + epsilon + "/" + m.cliName();
        return CACHE.computeIfAbsent(key, k -> {
            AuditResult r = OptimizerAudit.run(Audits.design(algorithm, design).at(epsilon), m,
                    new OptimizerAudit.Settings(runs(algorithm), ALPHA, SEED), OptimizerAudit.Progress.NONE);
            System.out.println(r + String.format(" [ledger s* < %.3f, %.1fs]", r.ledgerTest().scaleUpper(),
                    r.seconds()));
            return r;
        });
    }

    static Stream<Arguments> honest() {
        List<Arguments> out = new ArrayList<>();
        for (String a : Audits.algorithms()) {
            List<Audits.Design> ds = Audits.designs(a);
            for (int i = 0; i < ds.size(); i++) {
                out.add(Arguments.of(a, ds.get(i).name(), 4.0));
                if (i == 0) {
                    out.add(Arguments.of(a, ds.get(i).name(), 1.0));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} [{1}] eps={2}")
    @MethodSource("honest")
    void honestVersionPasses(String algorithm, String design, double epsilon) {
        AuditResult r = audit(algorithm, design, epsilon, Mutation.NONE);
        assertTrue(r.passed(), () -> "eps_lower above the claim: " + r);
        assertTrue(r.ledgerConsistent(), () -> "ledger test rejected: " + r);
    }

    static Stream<Arguments> mutants() {
        List<Arguments> out = new ArrayList<>();
        for (String a : Audits.algorithms()) {
            for (Audits.Design d : Audits.designs(a)) {
                for (Mutation m : d.mutants()) {
                    out.add(Arguments.of(a, d.name(), m));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} [{1}] mutant {2}")
    @MethodSource("mutants")
    void mutantIsFlaggedWithTheRunsTheHonestVersionPassesWith(String algorithm, String design, Mutation m) {
        AuditResult honest = audit(algorithm, design, 4.0, Mutation.NONE);
        assertFalse(honest.flagged(), () -> "the honest version is flagged: " + honest);
        AuditResult r = audit(algorithm, design, 4.0, m);
        assertTrue(r.runs() == honest.runs());
        assertTrue(r.flagged(), () -> "mutant not flagged: " + r);
    }

    /** Every mutant the run core implements is audited by some configuration of some optimizer. */
    @Test
    void everyImplementedMutantIsAudited() {
        List<Mutation> audited = new ArrayList<>();
        for (String a : Audits.algorithms()) {
            audited.addAll(Audits.mutants(a));
        }
        for (Mutation m : Mutation.values()) {
            if (m == Mutation.NONE || NOT_YET_WIRED.contains(m)) {
                continue;
            }
            assertTrue(audited.contains(m), "no configuration audits " + m.cliName());
        }
    }

    /**
     * Mutants whose optimizers are not on the run core yet (objective perturbation, Frank–Wolfe): listed
     * here so that the gap is visible, and to be removed when they are wired.
     */
    static final List<Mutation> NOT_YET_WIRED = List.of(Mutation.OBJPERT_BETA, Mutation.RNM_HALF_SCALE);
}
