package org.dpopt.cli;

import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;

/** {@code noisy-frank-wolfe}: full-batch noisy Frank–Wolfe with report-noisy-max over the vertices. */
final class NoisyFrankWolfeSpec extends FrankWolfeSpec {

    NoisyFrankWolfeSpec() {
        super("noisy-frank-wolfe", "BGM21 Alg. 3: full-batch noisy Frank-Wolfe, report-noisy-max over vertices, "
                + "advanced composition", Sets.POLYTOPE, false);
    }

    @Override
    PrivateOptimizer build(TrainArgs a) {
        return NoisyFrankWolfe.builder().runOptions(a.runOptions()).build();
    }
}
