package org.dpopt.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.sgd.Bftt19Sgd;

/** {@code nsgd}: noisy SGD with the BFTT19 theorem's T, η and batch size. */
final class Bftt19SgdSpec implements AlgorithmSpec {

    /** The ℓ2 radius M used when --radius is not given. */
    static final double DEFAULT_RADIUS = 10.0;

    @Override
    public String name() {
        return "nsgd";
    }

    @Override
    public String summary() {
        return "BFTT19 Algorithm 1 (paper preset): T, eta, m from the theorem, averaged iterate";
    }

    @Override
    public Map<Flag<?>, String> flags() {
        Map<Flag<?>, String> m = new LinkedHashMap<>();
        m.put(Flag.RADIUS, Double.toString(DEFAULT_RADIUS));
        m.put(Flag.ACCOUNTANT, "pld");
        return m;
    }

    @Override
    public ConvexSet domain(TrainArgs a) {
        return ConvexSets.l2Ball(a.or(Flag.RADIUS, DEFAULT_RADIUS));
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        Bftt19Sgd.Builder b = Bftt19Sgd.builder().runOptions(a.runOptions());
        if (a.has(Flag.ACCOUNTANT)) {
            b.accountant(Accountants.byName(a.get(Flag.ACCOUNTANT)));
        }
        return b.build();
    }
}
