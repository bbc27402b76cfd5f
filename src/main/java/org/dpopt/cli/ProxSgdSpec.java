package org.dpopt.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.smoothing.ProxSgd;

/**
 * {@code prox-sgd}: noisy SGD on the Moreau envelope (A_ProxGD). The BFTT19 preset when only
 * {@code --radius} is given; practical DP-SGD (5 epochs by default) otherwise.
 */
final class ProxSgdSpec implements AlgorithmSpec {

    @Override
    public String name() {
        return "prox-sgd";
    }

    @Override
    public String summary() {
        return "A_ProxGD: noisy SGD on the Moreau envelope, prox by inner subgradient descent (BFTT19 preset with "
                + "--radius only; practical DP-SGD otherwise)";
    }

    @Override
    public Map<Flag<?>, String> flags() {
        Map<Flag<?>, String> m = new LinkedHashMap<>();
        m.put(Flag.EPOCHS, "5 (practical mode)");
        m.put(Flag.BATCH_SIZE, "min(256, n/10)");
        m.put(Flag.CLIP_NORM, "1");
        m.put(Flag.LEARNING_RATE, "1");
        m.put(Flag.RADIUS, "none; given alone it selects the BFTT19 preset");
        m.put(Flag.ACCOUNTANT, "pld");
        return m;
    }

    @Override
    public String defaultLoss() {
        return "hinge";
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        boolean practical = a.has(Flag.EPOCHS) || a.has(Flag.BATCH_SIZE) || a.has(Flag.CLIP_NORM)
                || a.has(Flag.LEARNING_RATE) || !a.has(Flag.RADIUS);
        ProxSgd.Builder prox = ProxSgd.builder().runOptions(a.runOptions());
        if (practical) {
            NoisySgd.Builder b = NoisySgd.builder().epochs(a.or(Flag.EPOCHS, 5.0))
                    .accountant(Accountants.byName(a.get(Flag.ACCOUNTANT)));
            if (a.has(Flag.BATCH_SIZE)) {
                b.batchSize(a.get(Flag.BATCH_SIZE));
            }
            if (a.has(Flag.CLIP_NORM)) {
                b.clipNorm(a.get(Flag.CLIP_NORM));
            }
            if (a.has(Flag.LEARNING_RATE)) {
                b.learningRate(a.get(Flag.LEARNING_RATE));
            }
            return prox.noisySgd(b.build()).build();
        }
        return prox.accountant(Accountants.byName(a.get(Flag.ACCOUNTANT))).build();
    }
}
