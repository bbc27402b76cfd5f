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
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;
import org.dpopt.optim.frankwolfe.NoisyStochasticFrankWolfe;

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
    /**
     * One audit configuration.
     *
     * @param defaultEpsilon the claimed ε the configuration is audited at when the caller names none: 4 for
     *        most, 1 for the configurations whose mutants only break the guarantee measurably at small ε (a
     *        shuffle accounted as Poisson; objective perturbation's curvature rule)
     */
    public record Design(String algorithm, String name, Set<Mutation> mutants, DoubleFunction<AuditTarget> build,
            double defaultEpsilon) {
        /** The configuration calibrated to ε. */
        public AuditTarget at(double epsilon) {
            Checks.epsilon("--epsilon", epsilon);
            return build.apply(epsilon);
        }
    }

    /** The default claimed ε of an audit. */
    public static final double DEFAULT_EPSILON = 4;

    /** The claimed ε of the configurations whose mutants are caught only at small ε. */
    static final double SMALL_EPSILON = 1;

    private static final Map<String, List<Design>> DESIGNS = new LinkedHashMap<>();

    static {
        Set<Mutation> gauss = FamilyAudits.GAUSSIAN_MUTANTS;
        Set<Mutation> poisson = Set.of(Mutation.NO_CLIPPING, Mutation.HALF_NOISE, Mutation.HALF_SENSITIVITY);
        add("dp-sgd", "multi-canary-poisson", poisson,
                e -> MultiCanaryAudits.dpSgdPoisson(e, 5, "multi-canary-poisson", poisson));
        add("dp-sgd", "multi-canary-poisson-long", Set.of(Mutation.HALF_RATE_ACCOUNTING),
                e -> MultiCanaryAudits.dpSgdPoisson(e, 20, "multi-canary-poisson-long",
                        Set.of(Mutation.HALF_RATE_ACCOUNTING)));
        add("dp-sgd", "multi-canary-full-batch", Set.of(Mutation.REALIZED_BATCH, Mutation.HALF_RATE_ACCOUNTING),
                MultiCanaryAudits::dpSgdFullBatch);
        add("dp-sgd", "aligned-shuffle-epochs", Set.of(Mutation.SHUFFLE_AS_POISSON),
                e -> SgdAudits.alignedShuffleEpochs(e, false), SMALL_EPSILON);
        add("dp-sgd", "aligned-shuffle-epochs-ablq", Set.of(), e -> SgdAudits.alignedShuffleEpochs(e, true),
                SMALL_EPSILON);
        add("dp-sgd", "aligned-shuffle", Set.of(Mutation.SHUFFLE_AS_POISSON), e -> SgdAudits.alignedShuffle(e, 1, 100));
        add("dp-sgd", "isolated-poisson", Set.of(Mutation.NO_CLIPPING, Mutation.HALF_NOISE),
                e -> SgdAudits.isolatedPoisson(e, 50, 5));
        add("dp-sgd", "aligned-full-batch", Set.of(Mutation.REALIZED_BATCH, Mutation.HALF_RATE_ACCOUNTING,
                Mutation.HALF_NOISE),
                e -> SgdAudits.alignedFullBatch(e, 5));
        add("dp-sgd", "input-space", Set.of(Mutation.HALF_NOISE), SgdAudits::inputSpace);
        add("nsgd", "multi-canary-poisson", gauss, MultiCanaryAudits::nsgd);
        add("nsgd", "isolated-poisson", Set.of(Mutation.HALF_NOISE), SgdAudits::nsgd);
        add("prox-sgd", "multi-canary-poisson", gauss, MultiCanaryAudits::proxSgd);
        add("prox-sgd", "isolated-poisson", Set.of(Mutation.HALF_NOISE), SgdAudits::proxSgd);
        add("phased-sgd", "multi-canary-first-phase", gauss, MultiCanaryAudits::phasedSgd);
        add("phased-sgd", "first-phase", FamilyAudits.PHASED_MUTANTS, FamilyAudits::phasedSgd);
        add("pg-mirror-descent", "multi-canary-one-part", FamilyAudits.MIRROR_MUTANTS,
                e -> MultiCanaryAudits.pgMirrorDescent(e, 1, MultiCanaryAudits.MIRROR_K, "multi-canary-one-part"));
        add("pg-mirror-descent", "multi-canary-parts", FamilyAudits.MIRROR_MUTANTS, MultiCanaryAudits::pgMirrorDescent);
        add("pg-mirror-descent", "zero-out", FamilyAudits.MIRROR_MUTANTS, FamilyAudits::pgMirrorDescent);
        for (boolean svrg : new boolean[] {false, true}) { // the exact variant, then SVRG: the same three designs
            String name = svrg ? "objective-perturbation-svrg" : "objective-perturbation";
            add(name, "multi-canary-sensitivity-bound", gauss, e -> MultiCanaryAudits.objectivePerturbation(e, svrg));
            add(name, "multi-canary-curvature", Set.of(Mutation.OBJPERT_BETA), svrg
                    ? MultiCanaryAudits::objectivePerturbationSvrgCurvature
                    : MultiCanaryAudits::objectivePerturbationCurvature, SMALL_EPSILON);
            add(name, "sensitivity-bound", FamilyAudits.OBJPERT_MUTANTS,
                    e -> FamilyAudits.objectivePerturbation(e, svrg));
        }
        add("noisy-frank-wolfe", "one-step-tail", FamilyAudits.RNM_MUTANTS, MultiCanaryAudits::noisyFrankWolfe);
        add("noisy-frank-wolfe", "one-step", FamilyAudits.RNM_MUTANTS, FamilyAudits::noisyFrankWolfe);
        add("noisy-frank-wolfe", "isolated-poisson", Set.of(Mutation.HALF_NOISE), e -> SgdAudits.frankWolfePoisson(
                "noisy-frank-wolfe", e, (m, o) -> NoisyFrankWolfe.builder().mutation(m).observer(o).build()));
        add("vr-frank-wolfe", "one-step-tail", FamilyAudits.RNM_MUTANTS, MultiCanaryAudits::vrFrankWolfe);
        add("vr-frank-wolfe", "one-pass", FamilyAudits.RNM_MUTANTS, FamilyAudits::vrFrankWolfe);
        add("noisy-sfw", "multi-canary-one-step", gauss, MultiCanaryAudits::noisySfw);
        add("noisy-sfw", "one-pass", gauss, FamilyAudits::noisySfw);
        add("noisy-sfw", "full-batch-passes", gauss, FamilyAudits::noisySfwPasses);
        add("noisy-sfw", "isolated-poisson", Set.of(Mutation.HALF_NOISE), e -> SgdAudits.frankWolfePoisson("noisy-sfw",
                e, (m, o) -> NoisyStochasticFrankWolfe.builder().mutation(m).observer(o).build()));
        add("constant-check", "label-flip-tie", FamilyAudits.RNM_MUTANTS, CheckAudits::constantCheck);
        add("constant-check", "added-row-tie", FamilyAudits.RNM_MUTANTS, CheckAudits::constantCheckAddRemove);
    }

    private static void add(String algorithm, String name, Set<Mutation> mutants, DoubleFunction<AuditTarget> build) {
        add(algorithm, name, mutants, build, DEFAULT_EPSILON);
    }

    private static void add(String algorithm, String name, Set<Mutation> mutants, DoubleFunction<AuditTarget> build,
            double defaultEpsilon) {
        DESIGNS.computeIfAbsent(algorithm, k -> new ArrayList<>())
                .add(new Design(algorithm, name, mutants, build, defaultEpsilon));
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
