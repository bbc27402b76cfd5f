package org.dpopt.cli;

import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.smoothing.ProxSgd;

/**
 * {@code prox-sgd}: noisy SGD on the Moreau envelope (A_ProxGD). The BFTT19 preset when only
 * {@code --radius} is given; practical DP-SGD (5 epochs by default, tail-averaged output) otherwise.
 */
final class ProxSgdSpec extends AlgorithmSpec {

    ProxSgdSpec() {
        super("prox-sgd", "A_ProxGD: noisy SGD on the Moreau envelope (BFTT19 preset with --radius only, prox by inner "
                + "subgradient descent; practical DP-SGD otherwise, prox by bisection for GLL losses)", SGD_HINT,
                FlagTable.of(SgdFlags.schedule("5 (practical mode)", true))
                        .and(Flag.RADIUS, "none; given alone it selects the BFTT19 preset").and(Flag.ACCOUNTANT, "pld"));
    }

    @Override
    String defaultLoss() {
        return "hinge";
    }

    @Override
    PrivateOptimizer build(TrainArgs a) {
        boolean practical = a.has(Flag.EPOCHS) || a.has(Flag.BATCH_SIZE) || a.has(Flag.CLIP_NORM)
                || a.has(Flag.LEARNING_RATE) || !a.has(Flag.RADIUS);
        ProxSgd.Builder prox = ProxSgd.builder().runOptions(a.runOptions());
        if (practical) {
            NoisySgd.Builder b = NoisySgd.builder().tailAverage().epochs(a.or(Flag.EPOCHS, 5.0))
                    .accountant(Accountants.byName(a.get(Flag.ACCOUNTANT)));
            SgdFlags.apply(a, b); // --epochs again, if given: the value just set
            return prox.noisySgd(b.build()).build();
        }
        return prox.accountant(Accountants.byName(a.get(Flag.ACCOUNTANT))).build();
    }
}
