package org.dpopt.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.sgd.Bftt19Sgd;

/**
 * {@code nsgd}: projected noisy SGD (BFTT19 Algorithm 1); the practical preset by default,
 * {@code --preset paper} for the theorem's T, η and batch size.
 */
final class Bftt19SgdSpec implements AlgorithmSpec {

    /** The ℓ2 radius M used when --radius is not given. */
    static final double DEFAULT_RADIUS = 10.0;

    @Override
    public String name() {
        return "nsgd";
    }

    @Override
    public String summary() {
        return "BFTT19 Algorithm 1: projected noisy SGD over the l2 ball; practical preset: DP-SGD's schedule, "
                + "tail average; paper preset: T, eta, m from the theorem, average of all iterates";
    }

    @Override
    public Map<Flag<?>, String> flags() {
        Map<Flag<?>, String> m = new LinkedHashMap<>();
        m.put(Flag.RADIUS, Double.toString(DEFAULT_RADIUS));
        m.put(Flag.ACCOUNTANT, "pld");
        m.put(Flag.PRESET, "practical");
        m.put(Flag.EPOCHS, "30 (practical preset)");
        m.put(Flag.BATCH_SIZE, "min(256, n/10) (practical preset)");
        m.put(Flag.LEARNING_RATE, "1 (practical preset)");
        return m;
    }

    @Override
    public ConvexSet domain(TrainArgs a) {
        return ConvexSets.l2Ball(a.or(Flag.RADIUS, DEFAULT_RADIUS));
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        Bftt19Sgd.Builder b = Bftt19Sgd.builder().runOptions(a.runOptions()).preset(a.preset());
        if (a.has(Flag.EPOCHS)) {
            b.epochs(a.get(Flag.EPOCHS));
        }
        if (a.has(Flag.BATCH_SIZE)) {
            b.batchSize(a.get(Flag.BATCH_SIZE));
        }
        if (a.has(Flag.LEARNING_RATE)) {
            b.learningRate(a.get(Flag.LEARNING_RATE));
        }
        if (a.has(Flag.ACCOUNTANT)) {
            b.accountant(Accountants.byName(a.get(Flag.ACCOUNTANT)));
        }
        return b.build();
    }

    @Override
    public String hint() {
        return "--radius, --epochs or --learning-rate";
    }
}
