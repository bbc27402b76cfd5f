package org.dpopt.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.PrivateOptimizer;

/**
 * The algorithms {@code dpopt train} knows, each with the optional flags it accepts and a factory
 * from {@link TrainOptions}. To add an algorithm, add one {@code register(...)} line below.
 */
public final class Algorithms {
    private Algorithms() {
    }

    /**
     * One trainable algorithm.
     *
     * @param name CLI name
     * @param flags optional flags it accepts (others are rejected with exit code 2)
     * @param defaultLoss the loss used when --loss is not given
     * @param factory builds the optimizer from the options
     * @param description one line for help output
     */
    public record Spec(String name, Set<String> flags, String defaultLoss,
            Function<TrainOptions, PrivateOptimizer> factory, String description) {
    }

    private static final Map<String, Spec> REGISTRY = new LinkedHashMap<>();

    static {
        register(ObjPertAlgorithms.exact());
        register(ObjPertAlgorithms.svrg());
    }

    private static void register(Spec s) {
        REGISTRY.put(s.name(), s);
    }

    /** All registered algorithms, in registration order. */
    public static Map<String, Spec> all() {
        return Collections.unmodifiableMap(REGISTRY);
    }

    /** Looks up an algorithm. */
    public static Spec get(String name) {
        Spec s = REGISTRY.get(name);
        if (s == null) {
            throw Checks.fail("--algorithm", "one of " + REGISTRY.keySet(), name);
        }
        return s;
    }
}
