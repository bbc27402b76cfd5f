package org.dpopt.cli;

import org.dpopt.linalg.Checks;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.objpert.ApproximateObjectivePerturbation;

/**
 * {@code objective-perturbation-svrg}: approximate objective perturbation, SVRG to a certified accuracy
 * plus Gaussian output noise. {@code --epochs} fixes the epoch budget (at least the certified one).
 */
final class ApproximateObjectivePerturbationSpec extends AlgorithmSpec {

    ApproximateObjectivePerturbationSpec() {
        super("objective-perturbation-svrg", "approximate objective perturbation: SVRG to a certified accuracy + "
                + "Gaussian output noise", "--l2 (lambda), --radius or --epochs",
                ObjectivePerturbationSpec.settings().and(Flag.EPOCHS, "the certified epoch budget"));
    }

    @Override
    PrivateOptimizer build(TrainArgs a) {
        ApproximateObjectivePerturbation.Builder b = ApproximateObjectivePerturbation.builder().preset(a.preset())
                .runOptions(a.runOptions());
        a.ifGiven(Flag.L2, b::lambda);
        a.ifGiven(Flag.EPOCHS, e -> b.epochs(wholeEpochs(e)));
        return b.build();
    }

    private static int wholeEpochs(double e) {
        if (!(e >= 1 && e == Math.rint(e) && e <= Integer.MAX_VALUE)) {
            throw Checks.fail("--epochs", "a whole number >= 1 for objective-perturbation-svrg", e);
        }
        return (int) e;
    }
}
