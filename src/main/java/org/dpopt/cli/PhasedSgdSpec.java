package org.dpopt.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.accounting.BasicCompositionAccountant;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.smoothing.PhasedSgd;

/** {@code phased-sgd}: Phased-SGD (iterative localization) under replace-one, bisection smoothing. */
final class PhasedSgdSpec implements AlgorithmSpec {

    @Override
    public String name() {
        return "phased-sgd";
    }

    @Override
    public String summary() {
        return "FKT20 Phased-SGD (replace-one), bisection Moreau smoothing for non-smooth GLLs (BGM21 Thm 6; "
                + "unconstrained Thm 7 variant without --radius)";
    }

    @Override
    public Map<Flag<?>, String> flags() {
        Map<Flag<?>, String> m = new LinkedHashMap<>();
        m.put(Flag.RADIUS, "none (unconstrained, comparator radius sqrt(d))");
        m.put(Flag.LEARNING_RATE, "the theorem's step");
        m.put(Flag.ACCOUNTANT, "basic (exact Gaussian curve per phase); or rdp");
        return m;
    }

    @Override
    public String defaultLoss() {
        return "hinge";
    }

    /** Replace-one accountants: basic (exact Gaussian curve per phase, default) or rdp. */
    static PrivacyAccountant replaceOneAccountant(String name) {
        String n = name == null ? "basic" : name;
        return switch (n) {
            case "basic" -> new BasicCompositionAccountant(NeighboringRelation.REPLACE_ONE);
            case "rdp" -> new RdpAccountant(RdpAccountant.DEFAULT_ORDERS, RdpAccountant.Conversion.IMPROVED,
                    NeighboringRelation.REPLACE_ONE);
            default -> throw Checks.fail("--accountant", "one of [basic, rdp] for phased-sgd", n);
        };
    }

    @Override
    public PrivateOptimizer build(TrainArgs a) {
        PhasedSgd.Builder b = PhasedSgd.builder().runOptions(a.runOptions())
                .accountant(replaceOneAccountant(a.get(Flag.ACCOUNTANT)));
        if (a.has(Flag.LEARNING_RATE)) {
            b.baseStepSize(a.get(Flag.LEARNING_RATE));
        }
        return b.build();
    }

    @Override
    public String hint() {
        return "--learning-rate or --radius";
    }
}
