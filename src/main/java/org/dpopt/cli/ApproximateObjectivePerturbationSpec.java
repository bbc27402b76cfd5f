package org.dpopt.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.objpert.ApproximateObjectivePerturbation;

/**
 * {@code objective-perturbation-svrg}: approximate objective perturbation, SVRG to a certified accuracy
 * plus Gaussian output noise. {@code --epochs} fixes the epoch budget (at least the certified one).
 */
final class ApproximateObjectivePerturbationSpec implements AlgorithmSpec {

    @Override
    public String name() {
        return "objective-perturbation-svrg";
    }

    @Override
    public String summary() {
        return "approximate objective perturbation: SVRG to a certified accuracy + Gaussian output noise";
    }

    @Override
    public Map<Flag<?>, String> flags() {
        Map<Flag<?>, String> m = new LinkedHashMap<>();
        m.put(Flag.RADIUS, "none (practical: lambda = 10 beta/(eps n) on R^d; paper: required)");
        m.put(Flag.L2, "the theorem's lambda at the radius");
        m.put(Flag.PRESET, "practical");
        m.put(Flag.EPOCHS, "the certified epoch budget");
        return m;
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        ApproximateObjectivePerturbation.Builder b = ApproximateObjectivePerturbation.builder().preset(a.preset())
                .runOptions(a.runOptions());
        if (a.has(Flag.L2)) {
            b.lambda(a.get(Flag.L2));
        }
        if (a.has(Flag.EPOCHS)) {
            double e = a.get(Flag.EPOCHS);
            if (!(e >= 1 && e == Math.rint(e) && e <= Integer.MAX_VALUE)) {
                throw Checks.fail("--epochs", "a whole number >= 1 for objective-perturbation-svrg", e);
            }
            b.epochs((int) e);
        }
        return b.build();
    }

    @Override
    public String hint() {
        return "--l2 (lambda), --radius or --epochs";
    }
}
