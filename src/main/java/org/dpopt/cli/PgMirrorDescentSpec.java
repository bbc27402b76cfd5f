package org.dpopt.cli;

import org.dpopt.data.Dataset;
import org.dpopt.data.Labels;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.mirror.ProximallyGuidedMirrorDescent;

/** {@code pg-mirror-descent}: proximally guided private stochastic mirror descent (weakly convex, ℓp). */
final class PgMirrorDescentSpec extends AlgorithmSpec {

    /** The l2 radius D when --radius is not given (as for nsgd). */
    static final double DEFAULT_RADIUS = 10.0;

    /** The loss for binary labels when --loss is not given. */
    static final String CLASSIFICATION_LOSS = "logistic";

    PgMirrorDescentSpec() {
        super("pg-mirror-descent", "BGM21 Alg. 6: proximally guided private stochastic mirror descent (weakly convex "
                + "or convex, l_p)", "--radius, --rho or --p",
                FlagTable.of(Flag.P, "2").and(Flag.RADIUS, DEFAULT_RADIUS + ": the l2 ball the iterates live in")
                        .and(Flag.RHO, "the loss's declared weak convexity; C/(R n) for a convex loss (paper preset: C/(30 R))")
                        .and(Flag.ACCOUNTANT, "pld").and(Flag.PRESET, "practical (convex loss: origin start, one "
                                + "round, last iterate)"));
    }

    /** phase-retrieval; the default for binary labels is {@link #CLASSIFICATION_LOSS}. */
    @Override
    String defaultLoss() {
        return "phase-retrieval";
    }

    @Override
    String defaultLoss(Dataset train) {
        return Labels.isBinaryEncoded(train) ? CLASSIFICATION_LOSS : defaultLoss();
    }

    @Override
    ConvexSet domain(TrainArgs a) {
        return l2Ball(a, DEFAULT_RADIUS);
    }

    @Override
    PrivateOptimizer build(TrainArgs a) {
        ProximallyGuidedMirrorDescent.Builder b = ProximallyGuidedMirrorDescent.builder().runOptions(a.runOptions())
                .preset(a.preset());
        a.ifGiven(Flag.P, b::p);
        a.ifGiven(Flag.RHO, b::rho);
        return b.accountant(Accountants.byName(a.get(Flag.ACCOUNTANT))).build();
    }
}
