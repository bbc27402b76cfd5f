package org.dpopt.cli;

import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.frankwolfe.VarianceReducedFrankWolfe;

/** {@code vr-frank-wolfe}: one-pass variance-reduced private Frank–Wolfe over a polytope. */
final class VrFrankWolfeSpec extends FrankWolfeSpec {

    VrFrankWolfeSpec() {
        super("vr-frank-wolfe", "BGM21 Alg. 4: one-pass variance-reduced private Frank-Wolfe (smooth, non-convex "
                + "allowed)", Sets.POLYTOPE, true);
    }

    /**
     * No head start: this method's one-pass models are often far worse than a constant on small sets,
     * and on the validation splits every margin above 0 released more of them.
     */
    @Override
    double constantCheckMargin(TrainArgs args) {
        return 0;
    }

    @Override
    PrivateOptimizer build(TrainArgs a) {
        return onePass(VarianceReducedFrankWolfe.builder(), a);
    }
}
