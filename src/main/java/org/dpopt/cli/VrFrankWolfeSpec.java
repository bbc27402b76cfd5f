package org.dpopt.cli;

import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.frankwolfe.VarianceReducedFrankWolfe;

/**
 * {@code vr-frank-wolfe}: variance-reduced private Frank–Wolfe over a polytope; by default on Poisson
 * batches with a recursive estimator, {@code --preset paper} (or {@code --rounds}) the one pass of BGM21
 * Algorithm 4 with report-noisy-max.
 */
final class VrFrankWolfeSpec extends FrankWolfeSpec {

    VrFrankWolfeSpec() {
        super("vr-frank-wolfe", "variance-reduced private Frank-Wolfe over a polytope: by default Poisson batches "
                + "with a recursive (SARAH/momentum) estimator (Gaussian, PLD, add/remove); --preset paper: BGM21 "
                + "Alg. 4, one pass, report-noisy-max (advanced composition, replace-one)", Sets.POLYTOPE,
                FlagTable.of(flagsOf(Sets.POLYTOPE))
                        .and(Flag.RADIUS, "2 sqrt(n eps) (an l1 ball) with the practical preset when none of "
                                + "--constraint, --radius, --rounds is given; 1 otherwise")
                        .and(Flag.ROUNDS, "ceil((n eps)^(1/3)) in one pass (giving it selects the one-pass schedule "
                                + "instead of the Poisson batches)")
                        .and(Flag.PRESET, "practical (Poisson batches, the l1 ball of radius 2 sqrt(n eps) unless "
                                + "--constraint, --radius or --rounds; paper: one pass, report-noisy-max, the "
                                + "uniformly random iterate, radius 1)"));
    }

    /** Whether the flags select the practical schedule on Poisson batches (the practical preset, no --rounds). */
    private static boolean onBatches(TrainArgs a) {
        return a.preset() == Preset.PRACTICAL && !a.has(Flag.ROUNDS);
    }

    /** On Poisson batches with neither --constraint nor --radius the optimizer picks its own ℓ1 ball. */
    @Override
    ConvexSet domain(TrainArgs a) {
        if (onBatches(a) && !a.has(Flag.CONSTRAINT) && !a.has(Flag.RADIUS)) {
            return ConvexSets.unconstrained();
        }
        return super.domain(a);
    }

    /**
     * The default head start on Poisson batches, as for noisy-frank-wolfe's; none for the one-pass
     * report-noisy-max schedule, whose models are often far worse than a constant on small sets (on the
     * validation splits every margin above 0 released more of them).
     */
    @Override
    double constantCheckMargin(TrainArgs args) {
        return onBatches(args) ? super.constantCheckMargin(args) : 0;
    }

    @Override
    PrivateOptimizer build(TrainArgs a) {
        return onePass(VarianceReducedFrankWolfe.builder(), a);
    }
}
