package org.dpopt.cli;

import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.sgd.NonPrivateSgd;

/** {@code non-private}: the same SGD loop without clipping or noise (a baseline; no privacy). */
final class NonPrivateSpec extends AlgorithmSpec {

    NonPrivateSpec() {
        super("non-private", "mini-batch SGD without clipping or noise (baseline; no privacy)",
                "--epochs or --learning-rate", FlagTable.of(SgdFlags.schedule("30", false))
                        .and(Flag.RADIUS, "none (unconstrained)").and(Flag.L2, "0"));
    }

    @Override
    boolean isPrivate() {
        return false;
    }

    @Override
    PrivateOptimizer build(TrainArgs a) {
        NonPrivateSgd.Builder b = NonPrivateSgd.builder().runOptions(a.runOptions());
        SgdFlags.apply(a, b);
        a.ifGiven(Flag.L2, b::l2);
        return b.build();
    }
}
