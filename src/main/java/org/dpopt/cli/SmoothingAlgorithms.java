package org.dpopt.cli;

import java.util.Set;
import org.dpopt.accounting.BasicCompositionAccountant;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.accounting.RdpAccountant;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.smoothing.PhasedSgd;
import org.dpopt.optim.smoothing.ProxSgd;

/** CLI specs of the Moreau-smoothing algorithms: phased-sgd (FKT20 / BGM21 Alg. 2) and prox-sgd (A_ProxGD). */
final class SmoothingAlgorithms {
    private SmoothingAlgorithms() {
    }

    /** Replace-one accountants for phased-sgd: basic (exact Gaussian curve per phase, default) or rdp. */
    static PrivacyAccountant replaceOneAccountant(String name) {
        String n = name == null ? "basic" : name;
        switch (n) {
            case "basic":
                return new BasicCompositionAccountant(NeighboringRelation.REPLACE_ONE);
            case "rdp":
                return new RdpAccountant(RdpAccountant.DEFAULT_ORDERS, RdpAccountant.Conversion.IMPROVED,
                        NeighboringRelation.REPLACE_ONE);
            default:
                throw Checks.fail("--accountant", "one of [basic, rdp] for phased-sgd", n);
        }
    }

    static Algorithms.Spec phasedSgd() {
        return new Algorithms.Spec("phased-sgd", Set.of("--radius", "--learning-rate", "--accountant"), "hinge",
                o -> {
                    PhasedSgd.Builder b = PhasedSgd.builder().accountant(replaceOneAccountant(o.accountant()));
                    if (o.learningRate() != null) {
                        b.baseStepSize(o.learningRate());
                    }
                    return b.build();
                },
                "FKT20 Phased-SGD (replace-one), bisection Moreau smoothing for non-smooth GLLs (BGM21 Thm 6; "
                        + "unconstrained Thm 7 variant without --radius)");
    }

    static Algorithms.Spec proxSgd() {
        return new Algorithms.Spec("prox-sgd",
                Set.of("--epochs", "--batch-size", "--clip-norm", "--learning-rate", "--radius", "--accountant"),
                "hinge",
                o -> {
                    boolean practical = o.epochs() != null || o.batchSize() != null || o.clipNorm() != null
                            || o.learningRate() != null || o.radius() == null;
                    NoisySgd.Builder b = NoisySgd.builder().accountant(Accountants.byName(o.accountant()));
                    if (practical) {
                        b.epochs(TrainOptions.or(o.epochs(), 5.0));
                        if (o.batchSize() != null) {
                            b.batchSize(o.batchSize());
                        }
                        if (o.clipNorm() != null) {
                            b.clipNorm(o.clipNorm());
                        }
                        if (o.learningRate() != null) {
                            b.learningRate(o.learningRate());
                        }
                        return ProxSgd.builder().noisySgd(b.build()).build();
                    }
                    return ProxSgd.builder().accountant(Accountants.byName(o.accountant())).build();
                },
                "A_ProxGD: noisy SGD on the Moreau envelope, prox by inner subgradient descent (BFTT19 preset with "
                        + "--radius only; practical DP-SGD otherwise)");
    }
}
