package org.dpopt.cli;

import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.objpert.ObjectivePerturbation;

/**
 * {@code objective-perturbation}: exact objective perturbation for smooth GLM losses (logistic,
 * squared, huber, smoothed-hinge; hinge and absolute are refused: not smooth), certified Newton solve.
 * {@code --l2} sets λ in λ‖w‖² (default: practical 10·β/(εn) on ℝ^d, the theorem's value with
 * {@code --radius}).
 */
final class ObjectivePerturbationSpec extends AlgorithmSpec {

    ObjectivePerturbationSpec() {
        super("objective-perturbation", "exact objective perturbation (GLM losses, certified Newton solve)",
                "--l2 (lambda) or --radius", settings());
    }

    /** The flags of both objective-perturbation algorithms: the set's radius, λ and the preset. */
    static FlagTable settings() {
        return FlagTable.of(Flag.RADIUS, "none (practical: lambda = 10 beta/(eps n) on R^d; paper: required)")
                .and(Flag.L2, "the theorem's lambda at the radius").and(Flag.PRESET, "practical");
    }

    @Override
    PrivateOptimizer build(TrainArgs a) {
        ObjectivePerturbation.Builder b = ObjectivePerturbation.builder().preset(a.preset()).runOptions(a.runOptions());
        a.ifGiven(Flag.L2, b::lambda);
        return b.build();
    }
}
