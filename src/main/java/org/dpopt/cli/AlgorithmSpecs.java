package org.dpopt.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpopt.linalg.Checks;

/** The algorithms {@code dpopt train} offers, in help order: one line per {@link AlgorithmSpec}. */
final class AlgorithmSpecs {
    private AlgorithmSpecs() {
    }

    private static final Map<String, AlgorithmSpec> ALL = new LinkedHashMap<>();

    static {
        add(new DpSgdSpec());
        add(new Bftt19SgdSpec());
        add(new NonPrivateSpec());
        add(new NoisyFrankWolfeSpec());
        add(new VrFrankWolfeSpec());
        add(new NoisySfwSpec());
        add(new PhasedSgdSpec());
        add(new ProxSgdSpec());
        add(new PgMirrorDescentSpec());
        add(new ObjectivePerturbationSpec());
        add(new ApproximateObjectivePerturbationSpec());
    }

    private static void add(AlgorithmSpec s) {
        ALL.put(s.name(), s);
    }

    /** All specs. */
    static List<AlgorithmSpec> all() {
        return Collections.unmodifiableList(new ArrayList<>(ALL.values()));
    }

    /** The spec of an algorithm. */
    static AlgorithmSpec get(String name) {
        AlgorithmSpec s = ALL.get(name);
        if (s == null) {
            throw Checks.fail("--algorithm", "one of " + ALL.keySet(), name);
        }
        return s;
    }
}
