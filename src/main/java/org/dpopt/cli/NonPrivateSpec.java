package org.dpopt.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.sgd.NonPrivateSgd;

/** {@code non-private}: the same SGD loop without clipping or noise (a baseline; no privacy). */
final class NonPrivateSpec implements AlgorithmSpec {

    @Override
    public String name() {
        return "non-private";
    }

    @Override
    public String summary() {
        return "mini-batch SGD without clipping or noise (baseline; no privacy)";
    }

    @Override
    public Map<Flag<?>, String> flags() {
        Map<Flag<?>, String> m = new LinkedHashMap<>();
        m.put(Flag.EPOCHS, "30");
        m.put(Flag.BATCH_SIZE, "min(256, n/10)");
        m.put(Flag.LEARNING_RATE, "1");
        m.put(Flag.RADIUS, "none (unconstrained)");
        m.put(Flag.L2, "0");
        return m;
    }

    @Override
    public boolean isPrivate() {
        return false;
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        NonPrivateSgd.Builder b = NonPrivateSgd.builder().runOptions(a.runOptions());
        if (a.has(Flag.EPOCHS)) {
            b.epochs(a.get(Flag.EPOCHS));
        }
        if (a.has(Flag.BATCH_SIZE)) {
            b.batchSize(a.get(Flag.BATCH_SIZE));
        }
        if (a.has(Flag.LEARNING_RATE)) {
            b.learningRate(a.get(Flag.LEARNING_RATE));
        }
        if (a.has(Flag.L2)) {
            b.l2(a.get(Flag.L2));
        }
        return b.build();
    }

    @Override
    public String hint() {
        return "--epochs or --learning-rate";
    }
}
