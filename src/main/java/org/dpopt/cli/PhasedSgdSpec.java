package org.dpopt.cli;

import org.dpopt.accounting.BasicCompositionAccountant;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.smoothing.PhasedSgd;

/** {@code phased-sgd}: Phased-SGD (iterative localization) under replace-one, bisection smoothing. */
final class PhasedSgdSpec extends AlgorithmSpec {

    PhasedSgdSpec() {
        super("phased-sgd", "FKT20 Phased-SGD (replace-one), bisection Moreau smoothing for non-smooth GLLs (BGM21 "
                + "Thm 6; unconstrained Thm 7 variant without --radius)", "--learning-rate or --radius",
                FlagTable.of(Flag.RADIUS, "none (unconstrained, comparator radius sqrt(d))")
                        .and(Flag.LEARNING_RATE, "the theorem's step")
                        .and(Flag.ACCOUNTANT, "basic (exact Gaussian curve per phase); or rdp")
                        .and(Flag.PRESET, "practical (at most 2 phases over all records, last iterate per phase)"));
    }

    @Override
    String defaultLoss() {
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
    PrivateOptimizer build(TrainArgs a) {
        PhasedSgd.Builder b = PhasedSgd.builder().runOptions(a.runOptions()).preset(a.preset())
                .accountant(replaceOneAccountant(a.get(Flag.ACCOUNTANT)));
        a.ifGiven(Flag.LEARNING_RATE, b::baseStepSize);
        return b.build();
    }
}
