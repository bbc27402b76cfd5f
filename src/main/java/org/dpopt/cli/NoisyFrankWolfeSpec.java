package org.dpopt.cli;

import org.dpopt.geometry.ConvexSet;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;

/** {@code noisy-frank-wolfe}: full-batch noisy Frank–Wolfe with report-noisy-max over the vertices. */
final class NoisyFrankWolfeSpec extends AlgorithmSpec {

    /** The hint of the polytope algorithms. */
    static final String POLYTOPE_HINT = "--radius (the l1 ball must hold a useful model) or --constraint";

    NoisyFrankWolfeSpec() {
        super("noisy-frank-wolfe", "BGM21 Alg. 3: full-batch noisy Frank-Wolfe, report-noisy-max over vertices, "
                + "advanced composition", POLYTOPE_HINT, FrankWolfeDomains.polytopeFlags());
    }

    @Override
    ConvexSet domain(TrainArgs a) {
        return FrankWolfeDomains.polytope(a);
    }

    @Override
    PrivateOptimizer build(TrainArgs a) {
        return NoisyFrankWolfe.builder().runOptions(a.runOptions()).build();
    }
}
