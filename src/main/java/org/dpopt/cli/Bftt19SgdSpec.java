package org.dpopt.cli;

import org.dpopt.geometry.ConvexSet;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.sgd.Bftt19Sgd;

/**
 * {@code nsgd}: projected noisy SGD (BFTT19 Algorithm 1); the practical preset by default,
 * {@code --preset paper} for the theorem's T, η and batch size.
 */
final class Bftt19SgdSpec extends AlgorithmSpec {

    /** The ℓ2 radius M used when --radius is not given. */
    static final double DEFAULT_RADIUS = 10.0;

    Bftt19SgdSpec() {
        super("nsgd", "BFTT19 Algorithm 1: projected noisy SGD over the l2 ball; practical preset: DP-SGD's "
                + "schedule, tail average; paper preset: T, eta, m from the theorem, average of all iterates",
                "--radius, --epochs or --learning-rate",
                FlagTable.of(Flag.RADIUS, Double.toString(DEFAULT_RADIUS)).and(Flag.ACCOUNTANT, "pld")
                        .and(Flag.PRESET, "practical").and(SgdFlags.schedule("30", false, " (practical preset)")));
    }

    @Override
    ConvexSet domain(TrainArgs a) {
        return l2Ball(a, DEFAULT_RADIUS);
    }

    @Override
    PrivateOptimizer build(TrainArgs a) {
        Bftt19Sgd.Builder b = Bftt19Sgd.builder().runOptions(a.runOptions()).preset(a.preset());
        SgdFlags.apply(a, b);
        a.ifGiven(Flag.ACCOUNTANT, name -> b.accountant(Accountants.byName(name)));
        return b.build();
    }
}
