package org.dpopt.cli;

import java.util.Map;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;

/** {@code noisy-frank-wolfe}: full-batch noisy Frank–Wolfe with report-noisy-max over the vertices. */
final class NoisyFrankWolfeSpec implements AlgorithmSpec {

    @Override
    public String name() {
        return "noisy-frank-wolfe";
    }

    @Override
    public String summary() {
        return "BGM21 Alg. 3: full-batch noisy Frank-Wolfe, report-noisy-max over vertices, advanced composition";
    }

    @Override
    public Map<Flag<?>, String> flags() {
        return FrankWolfeDomains.polytopeFlags();
    }

    @Override
    public ConvexSet domain(TrainArgs a) {
        return FrankWolfeDomains.polytope(a);
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        return NoisyFrankWolfe.builder().runOptions(a.runOptions()).build();
    }

    @Override
    public String hint() {
        return "--radius (the l1 ball must hold a useful model) or --constraint";
    }
}
