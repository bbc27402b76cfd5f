package org.dpopt.cli;

import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.frankwolfe.NoisyStochasticFrankWolfe;

/** {@code noisy-sfw}: noisy stochastic Frank–Wolfe over an ℓp ball (Gaussian noise). */
final class NoisySfwSpec extends FrankWolfeSpec {

    NoisySfwSpec() {
        super("noisy-sfw", "noisy stochastic Frank-Wolfe over an lp ball: by default on Poisson batches (Gaussian, PLD, "
                + "add/remove); --preset paper: BGM21 Alg. 5, one pass (RDP, replace-one)",
                Sets.LP_BALL, true);
    }

    @Override
    PrivateOptimizer build(TrainArgs a) {
        return onePass(NoisyStochasticFrankWolfe.builder(), a);
    }
}
