package org.dpopt.optim;

import java.util.List;
import java.util.function.Supplier;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.core.OptimizerBuilder;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;
import org.dpopt.optim.frankwolfe.NoisyStochasticFrankWolfe;
import org.dpopt.optim.frankwolfe.VarianceReducedFrankWolfe;
import org.dpopt.optim.mirror.ProximallyGuidedMirrorDescent;
import org.dpopt.optim.objpert.ApproximateObjectivePerturbation;
import org.dpopt.optim.objpert.ObjectivePerturbation;
import org.dpopt.optim.sgd.Bftt19Sgd;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.sgd.NonPrivateSgd;
import org.dpopt.optim.smoothing.PhasedSgd;
import org.dpopt.optim.smoothing.ProxSgd;

/**
 * The catalog of dpopt's optimizers, one entry per algorithm: its CLI name, what it is, and its builder
 * with the documented defaults. Every optimizer implements {@link PrivateOptimizer}; for typed settings
 * call the class's own {@code builder()} (for example {@code NoisySgd.builder()}).
 */
public final class Optimizers {

    /**
     * One optimizer of the catalog.
     *
     * @param name the algorithm's name (as {@code dpopt train --algorithm} spells it and as
     *     {@link PrivateOptimizer#name()} reports it)
     * @param summary what the algorithm is, in a few words
     * @param builder a fresh builder with the documented defaults on each call
     */
    public record Entry(String name, String summary, Supplier<? extends OptimizerBuilder<?>> builder) {
    }

    private static final List<Entry> ALL = List.of(
            new Entry("dp-sgd", "practical DP-SGD", NoisySgd::builder),
            new Entry("nsgd", "noisy SGD with the BFTT19 theorem's parameters", Bftt19Sgd::builder),
            new Entry("non-private", "the same SGD loop without clipping or noise", NonPrivateSgd::builder),
            new Entry("noisy-frank-wolfe", "noisy Frank-Wolfe over a polytope (by default on Poisson batches; "
                    + "preset paper: report-noisy-max)", NoisyFrankWolfe::builder),
            new Entry("vr-frank-wolfe", "variance-reduced private Frank-Wolfe (Poisson batches; paper: one pass)",
                    VarianceReducedFrankWolfe::builder),
            new Entry("noisy-sfw", "noisy stochastic Frank-Wolfe over an lp ball (by default on Poisson batches)",
                    NoisyStochasticFrankWolfe::builder),
            new Entry("phased-sgd", "phased SGD with bisection smoothing", PhasedSgd::builder),
            new Entry("prox-sgd", "noisy SGD on the Moreau envelope", ProxSgd::builder),
            new Entry("pg-mirror-descent", "proximally guided private stochastic mirror descent",
                    ProximallyGuidedMirrorDescent::builder),
            new Entry("objective-perturbation", "exact objective perturbation", ObjectivePerturbation::builder),
            new Entry("objective-perturbation-svrg", "approximate objective perturbation: SVRG plus output noise",
                    ApproximateObjectivePerturbation::builder));

    private Optimizers() {
    }

    /** Every optimizer, in the CLI's order. */
    public static List<Entry> all() {
        return ALL;
    }

    /**
     * The builder (with the documented defaults) of the optimizer of this name.
     *
     * @throws IllegalArgumentException if no optimizer has that name
     */
    public static OptimizerBuilder<?> builder(String name) {
        Checks.notNull("name", name);
        for (Entry e : ALL) {
            if (e.name().equals(name)) {
                return e.builder().get();
            }
        }
        throw Checks.fail("optimizer name", "one of " + ALL.stream().map(Entry::name).toList(), name);
    }
}
