package org.dpopt.cli;

import java.util.Map;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.frankwolfe.VarianceReducedFrankWolfe;

/** {@code vr-frank-wolfe}: one-pass variance-reduced private Frank–Wolfe over a polytope. */
final class VrFrankWolfeSpec implements AlgorithmSpec {

    @Override
    public String name() {
        return "vr-frank-wolfe";
    }

    @Override
    public String summary() {
        return "BGM21 Alg. 4: one-pass variance-reduced private Frank-Wolfe (smooth, non-convex allowed)";
    }

    @Override
    public Map<Flag<?>, String> flags() {
        return FrankWolfeDomains.onePass(FrankWolfeDomains.polytopeFlags());
    }

    @Override
    public ConvexSet domain(TrainArgs a) {
        return FrankWolfeDomains.polytope(a);
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        VarianceReducedFrankWolfe.Builder b = VarianceReducedFrankWolfe.builder().runOptions(a.runOptions()).preset(a.preset());
        if (a.has(Flag.ROUNDS)) {
            b.rounds(a.get(Flag.ROUNDS));
        }
        return b.build();
    }

    @Override
    public String hint() {
        return "--radius (the l1 ball must hold a useful model) or --constraint";
    }
}
