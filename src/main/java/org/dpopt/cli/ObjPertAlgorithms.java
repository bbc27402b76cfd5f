package org.dpopt.cli;

import java.util.Set;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.objpert.ApproximateObjectivePerturbation;
import org.dpopt.optim.objpert.ObjectivePerturbation;

/**
 * CLI specs of objective perturbation: {@code objective-perturbation} (exact, certified Newton) and
 * {@code objective-perturbation-svrg} (approximate: SVRG + Gaussian output noise). {@code --l2} sets λ
 * in λ‖w‖² (default: the theorem's value, which needs {@code --radius}); {@code --epochs} fixes
 * the SVRG epoch budget (default: the certified budget). Losses: logistic, squared, huber,
 * smoothed-hinge (hinge and absolute are refused: not smooth).
 */
final class ObjPertAlgorithms {
    private ObjPertAlgorithms() {
    }

    static Algorithms.Spec exact() {
        return new Algorithms.Spec("objective-perturbation", Set.of("--radius", "--l2"), "logistic",
                o -> {
                    ObjectivePerturbation.Builder b = ObjectivePerturbation.builder();
                    if (o.l2() != null) {
                        b.lambda(o.l2());
                    }
                    return b.build();
                },
                "exact objective perturbation (GLM losses, certified Newton solve)");
    }

    static Algorithms.Spec svrg() {
        return new Algorithms.Spec("objective-perturbation-svrg", Set.of("--radius", "--l2", "--epochs"), "logistic",
                o -> {
                    ApproximateObjectivePerturbation.Builder b = ApproximateObjectivePerturbation.builder();
                    if (o.l2() != null) {
                        b.lambda(o.l2());
                    }
                    if (o.epochs() != null) {
                        double e = o.epochs();
                        if (!(e >= 1 && e == Math.rint(e) && e <= Integer.MAX_VALUE)) {
                            throw Checks.fail("--epochs", "a whole number >= 1 for objective-perturbation-svrg", e);
                        }
                        b.epochs((int) e);
                    }
                    return b.build();
                },
                "approximate objective perturbation: SVRG to a certified accuracy + Gaussian output noise");
    }
}
