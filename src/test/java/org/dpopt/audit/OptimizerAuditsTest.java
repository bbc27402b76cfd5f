package org.dpopt.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.dpopt.optim.core.Mutation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fast audits CI runs, with {@value #RUNS} runs (the size of {@code dpopt audit}'s default) where a
 * mutant test compares with the honest audit, fewer where the margin is large ({@link #runsFor}):
 * every optimizer's default configuration at ε ∈ {1, 4}, and every mutant of every optimizer on the
 * configuration {@code dpopt audit --mutant} picks for it, next to the honest audit of that same
 * configuration (same runs, same seed).
 *
 * <p><b>Criteria.</b> Honest: ε_lower ≤ ε and the ledger test consistent. Mutant: ε_lower &gt; ε — the
 * assumption-free criterion — except those in {@link #NOT_CAUGHT_AT_CI_SIZE}, which are listed so that
 * the gap is visible.
 *
 * <p><b>False failures.</b> An honest audit fails if ε_lower &gt; ε (probability ≤ α = 0.05 for a
 * correct implementation) or if the ledger test rejects (probability ≤ α): each honest test has a
 * false-failure probability ≤ 2α = 0.1, for the combination of seed and implementation; the seeds are
 * fixed (seed 1, never tuned), so the outcome is deterministic and the measured margins are in the
 * validation page. A mutant test failing means a lack of power, not chance alone.
 */
class OptimizerAuditsTest {
    static final double ALPHA = 0.05;
    static final long SEED = 1;
    static final int RUNS = 2000;

    /**
     * Implemented mutants that no CI-size test flags (their audits are in the validation profile, and the
     * page says what they need): listed so that the gap is visible.
     */
    static final Set<String> NOT_CAUGHT_AT_CI_SIZE = Set.of();

    /**
     * The claimed ε a mutant is audited at in CI: its design's default, the one {@code dpopt audit} uses
     * without {@code --epsilon} — 4, except for {@code objpert-beta}, which costs ln(1 + 10ε) on its
     * curvature pair — 3.7 &lt; 4 at ε = 4, only mildly broken there — and is caught at ε = 1 with 2000 runs,
     * and {@code shuffle-as-poisson}, audited at ε = 1, where the shuffled pair's measurable privacy loss is
     * about twice the Poisson claim (at ε = 4 the gap lies in tails that 2000 runs cannot reach).
     */
    static double epsilonFor(String algorithm, Mutation m) {
        return Audits.design(algorithm, m).defaultEpsilon();
    }

    @Test
    void smallEpsilonDesignsAreTheOnesOfTheSmallEpsilonMutants() {
        assertEquals(1.0, epsilonFor("dp-sgd", Mutation.SHUFFLE_AS_POISSON));
        assertEquals(1.0, epsilonFor("objective-perturbation", Mutation.OBJPERT_BETA));
        assertEquals(1.0, epsilonFor("objective-perturbation-svrg", Mutation.OBJPERT_BETA));
        assertEquals(4.0, epsilonFor("dp-sgd", Mutation.NO_CLIPPING));
        assertEquals(4.0, epsilonFor("objective-perturbation-svrg", Mutation.HALF_NOISE));
    }

    /** Runs of the honest audits that no mutant test is compared with (their margin to the claim is large). */
    static final int HONEST_ONLY_RUNS = 1000;

    /**
     * Algorithms whose every CI audit uses fewer runs, with the margins that allow it (measured with the
     * same seed; every 2000-run number is in {@code validation/auditing.md}): nsgd's mutants keep
     * ε_lower 4.66 / 4.50 &gt; 4 at 1000 runs (its audits are the most expensive).
     */
    static final Map<String, Integer> TRIMMED = Map.of("nsgd", 1000);

    /**
     * Mutants compared at another size than {@value #RUNS} runs (with their honest audit at the same
     * size): SVRG objective perturbation's {@code objpert-beta}, 1.85 &gt; 1 at 1000 runs, whose mutant
     * runs are slow (the mutant's λ makes SVRG ill-conditioned: ~14 s per 1000 runs). (Its
     * {@code half-noise} needed 4000 runs with 150 canaries per run — 3.95 at 2000 — and is flagged at
     * 2000 with the 300 canaries its configuration now has: 4.55.)
     */
    static final Map<String, Integer> MUTANT_RUNS = Map.of("objective-perturbation-svrg/objpert-beta", 1000);

    /**
     * The runs of one CI audit: the algorithm's trimmed size, else the size of the mutant tests that
     * compare with it ({@value #RUNS}, or the mutant's {@link #MUTANT_RUNS}; mutant and honest always get
     * the same runs), else {@value #HONEST_ONLY_RUNS}. The bound's validity holds at every size, so an
     * honest audit's false-failure probability stays ≤ 2α whatever its runs.
     */
    static int runsFor(String algorithm, String design, double epsilon) {
        if (TRIMMED.containsKey(algorithm)) {
            return TRIMMED.get(algorithm);
        }
        int runs = 0;
        for (Mutation m : Audits.mutants(algorithm)) {
            String key = algorithm + "/" + m.cliName();
            if (!NOT_CAUGHT_AT_CI_SIZE.contains(key) && Audits.design(algorithm, m).name().equals(design)
                    && epsilonFor(algorithm, m) == epsilon) {
                runs = Math.max(runs, MUTANT_RUNS.getOrDefault(key, RUNS));
            }
        }
        return runs > 0 ? runs : HONEST_ONLY_RUNS;
    }

    private static final Map<String, AuditResult> CACHE = new ConcurrentHashMap<>();

    static AuditResult audit(String algorithm, String design, double epsilon, Mutation m) {
        String key = algorithm + "/" + design + "/" + epsilon + "/" + m.cliName();
        return CACHE.computeIfAbsent(key, k -> {
            AuditResult r = OptimizerAudit.run(Audits.design(algorithm, design).at(epsilon), m,
                    new OptimizerAudit.Settings(runsFor(algorithm, design, epsilon), ALPHA, SEED),
                    OptimizerAudit.Progress.NONE);
            System.out.println(r + String.format(" [ledger s* < %.3f, %.1fs]", r.ledgerTest().scaleUpper(),
                    r.seconds()));
            return r;
        });
    }

    static Stream<Arguments> honest() {
        List<Arguments> out = new ArrayList<>();
        for (String a : Audits.algorithms()) {
            String first = Audits.designs(a).get(0).name();
            out.add(Arguments.of(a, first, 4.0));
            // prox-sgd's preset plans T = eps^2 n^2/(32 d ln(1/delta)) steps, about one at eps = 1 with 81 dimensions
            out.add(Arguments.of(a, a.equals("prox-sgd") ? "isolated-poisson" : first, 1.0));
        }
        // the practical defaults on Poisson batches, whose mutant is caught by another design
        out.add(Arguments.of("noisy-sfw", "isolated-poisson", 4.0));
        out.add(Arguments.of("noisy-frank-wolfe", "isolated-poisson", 4.0));
        // the shuffled run accounted for what it is (ABLQ), on the pair that exposes shuffle-as-poisson
        out.add(Arguments.of("dp-sgd", "aligned-shuffle-epochs-ablq", 1.0));
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
            for (Mutation m : Audits.mutants(a)) {
                if (!NOT_CAUGHT_AT_CI_SIZE.contains(a + "/" + m.cliName())) {
                    out.add(Arguments.of(a, Audits.design(a, m).name(), m));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} [{1}] mutant {2}")
    @MethodSource("mutants")
    void mutantIsCaughtWithTheRunsTheHonestVersionPassesWith(String algorithm, String design, Mutation m) {
        double eps = epsilonFor(algorithm, m);
        AuditResult honest = audit(algorithm, design, eps, Mutation.NONE);
        assertFalse(honest.flagged(), () -> "the honest version is flagged: " + honest);
        AuditResult r = audit(algorithm, design, eps, m);
        assertEquals(honest.runs(), r.runs());
        assertTrue(r.epsilonLower() > r.epsilon(), () -> "mutant not caught by eps_lower: " + r);
    }

    /** Every mutant is audited by some configuration of some optimizer. */
    @Test
    void everyMutantIsAudited() {
        Set<Mutation> audited = new LinkedHashSet<>();
        for (String a : Audits.algorithms()) {
            audited.addAll(Audits.mutants(a));
        }
        for (Mutation m : Mutation.values()) {
            assertTrue(m == Mutation.NONE || audited.contains(m), "no configuration audits " + m.cliName());
        }
    }

    /** A mutant a configuration does not implement is refused with the one-line message, not "passed". */
    @Test
    void unsupportedMutantIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Audits.design("nsgd", Mutation.NO_CLIPPING));
        assertTrue(e.getMessage().startsWith("--mutant must be one that nsgd implements"), e.getMessage());
        AuditTarget t = Audits.design("phased-sgd", "multi-canary-first-phase").at(4);
        IllegalArgumentException f = assertThrows(IllegalArgumentException.class, () -> OptimizerAudit.run(t,
                Mutation.REALIZED_BATCH, new OptimizerAudit.Settings(8, ALPHA, SEED), OptimizerAudit.Progress.NONE));
        assertFalse(f.getMessage().contains("\n"), f.getMessage());
    }
}
