package org.dpopt.cli;

import java.util.Set;
import org.dpopt.optim.sgd.Bftt19Sgd;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.sgd.NonPrivateSgd;
import org.dpopt.sampling.Samplers;

/** CLI specs of the foundation algorithms: dp-sgd, nsgd (paper preset), non-private. */
final class CoreAlgorithms {
    private CoreAlgorithms() {
    }

    static Algorithms.Spec dpSgd() {
        return new Algorithms.Spec("dp-sgd",
                Set.of("--epochs", "--batch-size", "--clip-norm", "--learning-rate", "--sampler", "--radius", "--l2",
                        "--accountant"),
                "logistic",
                o -> {
                    NoisySgd.Builder b = NoisySgd.builder();
                    if (o.epochs() != null) {
                        b.epochs(o.epochs());
                    }
                    if (o.batchSize() != null) {
                        b.batchSize(o.batchSize());
                    }
                    if (o.clipNorm() != null) {
                        b.clipNorm(o.clipNorm());
                    }
                    if (o.learningRate() != null) {
                        b.learningRate(o.learningRate());
                    }
                    if (o.l2() != null) {
                        b.l2(o.l2());
                    }
                    if (o.sampler() != null) {
                        b.sampler(Samplers.byName(o.sampler()));
                    }
                    if (o.accountant() != null) {
                        b.accountant(Accountants.byName(o.accountant()));
                    }
                    return b.build();
                },
                "practical DP-SGD: Poisson batches, per-example clipping, calibrated Gaussian noise");
    }

    static Algorithms.Spec nsgd() {
        return new Algorithms.Spec("nsgd", Set.of("--radius", "--accountant"), "logistic",
                o -> Bftt19Sgd.builder().accountant(Accountants.byName(o.accountant())).build(),
                "BFTT19 Algorithm 1 (paper preset): T, eta, m from the theorem, averaged iterate");
    }

    static Algorithms.Spec nonPrivate() {
        return new Algorithms.Spec("non-private", Set.of("--epochs", "--batch-size", "--learning-rate", "--radius", "--l2"),
                "logistic",
                o -> {
                    NonPrivateSgd.Builder b = NonPrivateSgd.builder().diagnostics(true)
                            .epochs(TrainOptions.or(o.epochs(), 30.0)).learningRate(TrainOptions.or(o.learningRate(), 1.0))
                            .l2(TrainOptions.or(o.l2(), 0.0));
                    if (o.batchSize() != null) {
                        b.batchSize(o.batchSize());
                    }
                    return b.build();
                },
                "mini-batch SGD without clipping or noise (baseline; no privacy)");
    }
}
