package org.dpopt.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.dpopt.optim.PrivateOptimizer;

/**
 * TRANSITIONAL (removed when every family has its own spec): an old string-keyed
 * {@link Algorithms.Spec} seen as an {@link AlgorithmSpec}.
 */
final class LegacySpec implements AlgorithmSpec {
    private final Algorithms.Spec old;

    LegacySpec(Algorithms.Spec old) {
        this.old = old;
    }

    @Override
    public String name() {
        return old.name();
    }

    @Override
    public String summary() {
        return old.description();
    }

    @Override
    public Map<Flag<?>, String> flags() {
        Map<Flag<?>, String> m = new LinkedHashMap<>();
        for (Flag<?> f : Flag.ALL) {
            if (old.flags().contains(f.name())) {
                m.put(f, "see README");
            }
        }
        return m;
    }

    @Override
    public String defaultLoss() {
        return old.defaultLoss();
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        Set<String> given = new java.util.HashSet<>();
        for (Flag<?> f : a.values().keySet()) {
            given.add(f.name());
        }
        TrainOptions o = new TrainOptions(a.loss(), a.get(Flag.EPOCHS), a.get(Flag.BATCH_SIZE), a.get(Flag.CLIP_NORM),
                a.get(Flag.LEARNING_RATE), a.get(Flag.SAMPLER), a.get(Flag.RADIUS), a.get(Flag.L2), a.get(Flag.P),
                a.get(Flag.CONSTRAINT), a.get(Flag.ACCOUNTANT), given);
        return old.factory().apply(o);
    }
}
