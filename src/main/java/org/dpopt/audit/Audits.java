package org.dpopt.audit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleFunction;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.core.Mutation;

/**
 * The audit configurations of every optimizer at a size where runs are cheap (n ≤ 200, d ≤ 5, short
 * schedules), and for each mutant the configuration that exposes it. Used by {@code dpopt audit} and
 * the tests.
 */
public final class Audits {
    private Audits() {
    }

    /**
     * One configuration of an algorithm.
     *
     * @param algorithm the CLI name
     * @param name the configuration's name
     * @param mutants the mutants it runs
     * @param build the configuration at a claimed ε
     */
    public record Design(String algorithm, String name, Set<Mutation> mutants, DoubleFunction<AuditTarget> build) {
        /** The configuration calibrated to ε. */
        public AuditTarget at(double epsilon) {
            Checks.epsilon("--epsilon", epsilon);
            return build.apply(epsilon);
        }
    }

    private static final Map<String, List<Design>> DESIGNS = new LinkedHashMap<>();

    static {
        add("dp-sgd", "isolated-poisson", Set.of(Mutation.NO_CLIPPING, Mutation.HALF_NOISE),
                e -> SgdAudits.isolatedPoisson(e, 50, 5));
        add("dp-sgd", "aligned-full-batch", Set.of(Mutation.REALIZED_BATCH, Mutation.HALF_RATE_ACCOUNTING,
                Mutation.HALF_NOISE),
                e -> SgdAudits.alignedFullBatch(e, 5));
        add("dp-sgd", "aligned-shuffle", Set.of(Mutation.SHUFFLE_AS_POISSON), e -> SgdAudits.alignedShuffle(e, 1, 100));
        add("dp-sgd", "input-space", Set.of(Mutation.HALF_NOISE), SgdAudits::inputSpace);
        add("nsgd", "isolated-poisson", Set.of(Mutation.HALF_NOISE), SgdAudits::nsgd);
        add("prox-sgd", "isolated-poisson", Set.of(Mutation.HALF_NOISE), SgdAudits::proxSgd);
        add("phased-sgd", "first-phase", Set.of(), FamilyAudits::phasedSgd);
        add("pg-mirror-descent", "zero-out", Set.of(), FamilyAudits::pgMirrorDescent);
        add("objective-perturbation", "sensitivity-bound", Set.of(), e -> FamilyAudits.objectivePerturbation(e, false));
        add("objective-perturbation-svrg", "sensitivity-bound", Set.of(),
                e -> FamilyAudits.objectivePerturbation(e, true));
        add("noisy-frank-wolfe", "one-step", Set.of(), FamilyAudits::noisyFrankWolfe);
        add("vr-frank-wolfe", "one-pass", Set.of(), FamilyAudits::vrFrankWolfe);
        add("noisy-sfw", "one-pass", Set.of(), FamilyAudits::noisySfw);
    }

    private static void add(String algorithm, String name, Set<Mutation> mutants, DoubleFunction<AuditTarget> build) {
        DESIGNS.computeIfAbsent(algorithm, k -> new ArrayList<>()).add(new Design(algorithm, name, mutants, build));
    }

    /** The algorithms with audit configurations, in order. */
    public static List<String> algorithms() {
        return List.copyOf(DESIGNS.keySet());
    }

    /** The configurations of an algorithm; the first is its default. */
    public static List<Design> designs(String algorithm) {
        List<Design> d = DESIGNS.get(algorithm);
        if (d == null) {
            throw Checks.fail("--algorithm", "one of " + DESIGNS.keySet(), algorithm);
        }
        return Collections.unmodifiableList(d);
    }

    /** Every mutant some configuration of the algorithm runs. */
    public static Set<Mutation> mutants(String algorithm) {
        Set<Mutation> out = new LinkedHashSet<>();
        for (Design d : designs(algorithm)) {
            out.addAll(d.mutants());
        }
        return out;
    }

    /**
     * The configuration that audits the mutant ({@link Mutation#NONE}: the default one): the first that
     * runs it.
     *
     * @throws IllegalArgumentException if no configuration of the algorithm runs the mutant
     */
    public static Design design(String algorithm, Mutation mutant) {
        Checks.notNull("mutant", mutant);
        for (Design d : designs(algorithm)) {
            if (mutant == Mutation.NONE || d.mutants().contains(mutant)) {
                return d;
            }
        }
        throw Checks.fail("--mutant", "one that " + algorithm + " implements " + mutants(algorithm).stream()
                .map(Mutation::cliName).toList(), mutant.cliName());
    }

    /** The named configuration of an algorithm. */
    public static Design design(String algorithm, String name) {
        for (Design d : designs(algorithm)) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        throw Checks.fail("--design", "one of " + designs(algorithm).stream().map(Design::name).toList(), name);
    }
}
