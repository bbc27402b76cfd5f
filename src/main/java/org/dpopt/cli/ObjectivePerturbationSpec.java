package org.dpopt.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.objpert.ObjectivePerturbation;

/**
 * {@code objective-perturbation}: exact objective perturbation for smooth GLM losses (logistic,
 * squared, huber, smoothed-hinge; hinge and absolute are refused: not smooth), certified Newton solve.
 * {@code --l2} sets λ in λ‖w‖² (default: practical 10·β/(εn) on ℝ^d, the theorem's value with
 * {@code --radius}).
 */
final class ObjectivePerturbationSpec implements AlgorithmSpec {

    @Override
    public String name() {
        return "objective-perturbation";
    }

    @Override
    public String summary() {
        return "exact objective perturbation (GLM losses, certified Newton solve)";
    }

    @Override
    public Map<Flag<?>, String> flags() {
        Map<Flag<?>, String> m = new LinkedHashMap<>();
        m.put(Flag.RADIUS, "none (practical: lambda = 10 beta/(eps n) on R^d; paper: required)");
        m.put(Flag.L2, "the theorem's lambda at the radius");
        m.put(Flag.PRESET, "practical");
        return m;
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        ObjectivePerturbation.Builder b = ObjectivePerturbation.builder().preset(a.preset()).runOptions(a.runOptions());
        if (a.has(Flag.L2)) {
            b.lambda(a.get(Flag.L2));
        }
        return b.build();
    }

    @Override
    public String hint() {
        return "--l2 (lambda) or --radius";
    }
}
