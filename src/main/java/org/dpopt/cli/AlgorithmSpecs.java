package org.dpopt.cli;

import java.util.List;
import org.dpopt.linalg.Checks;

/** The algorithms {@code dpopt train} offers, in help order: one entry per {@link AlgorithmSpec}. */
final class AlgorithmSpecs {
    private AlgorithmSpecs() {
    }

    private static final List<AlgorithmSpec> ALL = List.of(new DpSgdSpec(), new Bftt19SgdSpec(), new NonPrivateSpec(),
            new NoisyFrankWolfeSpec(), new VrFrankWolfeSpec(), new NoisySfwSpec(), new PhasedSgdSpec(), new ProxSgdSpec(),
            new PgMirrorDescentSpec(), new ObjectivePerturbationSpec(), new ApproximateObjectivePerturbationSpec());

    private static final List<String> NAMES = ALL.stream().map(AlgorithmSpec::name).toList();

    static {
        if (NAMES.stream().distinct().count() != NAMES.size()) {
            throw new IllegalStateException("algorithm names must be distinct but were " + NAMES);
        }
    }

    /** All specs (unmodifiable). */
    static List<AlgorithmSpec> all() {
        return ALL;
    }

    /** The spec of an algorithm. */
    static AlgorithmSpec get(String name) {
        int i = NAMES.indexOf(name);
        if (i < 0) {
            throw Checks.fail("--algorithm", "one of " + NAMES, name);
        }
        return ALL.get(i);
    }
}
