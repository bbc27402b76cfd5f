package org.dpopt.optim;

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
 * The catalog of dpopt's optimizers: one entry point per algorithm, each a builder with documented
 * defaults (the CLI name in brackets). Every optimizer implements {@link PrivateOptimizer}.
 */
public final class Optimizers {
    private Optimizers() {
    }

    /** Practical DP-SGD ({@code dp-sgd}). */
    public static NoisySgd.Builder dpSgd() {
        return NoisySgd.builder();
    }

    /** Noisy SGD with the BFTT19 theorem's parameters ({@code nsgd}). */
    public static Bftt19Sgd.Builder bftt19Sgd() {
        return Bftt19Sgd.builder();
    }

    /** The same SGD loop without clipping or noise ({@code non-private}). */
    public static NonPrivateSgd.Builder nonPrivateSgd() {
        return NonPrivateSgd.builder();
    }

    /** Phased-SGD with bisection smoothing ({@code phased-sgd}). */
    public static PhasedSgd.Builder phasedSgd() {
        return PhasedSgd.builder();
    }

    /** Noisy SGD on the Moreau envelope ({@code prox-sgd}). */
    public static ProxSgd.Builder proxSgd() {
        return ProxSgd.builder();
    }

    /** Proximally guided private stochastic mirror descent ({@code pg-mirror-descent}). */
    public static ProximallyGuidedMirrorDescent.Builder proximallyGuidedMirrorDescent() {
        return ProximallyGuidedMirrorDescent.builder();
    }

    /** Exact objective perturbation ({@code objective-perturbation}). */
    public static ObjectivePerturbation.Builder objectivePerturbation() {
        return ObjectivePerturbation.builder();
    }

    /** Approximate objective perturbation: SVRG plus output noise ({@code objective-perturbation-svrg}). */
    public static ApproximateObjectivePerturbation.Builder approximateObjectivePerturbation() {
        return ApproximateObjectivePerturbation.builder();
    }

    /** Noisy Frank–Wolfe with report-noisy-max ({@code noisy-frank-wolfe}). */
    public static NoisyFrankWolfe.Builder noisyFrankWolfe() {
        return NoisyFrankWolfe.builder();
    }

    /** One-pass variance-reduced private Frank–Wolfe ({@code vr-frank-wolfe}). */
    public static VarianceReducedFrankWolfe.Builder varianceReducedFrankWolfe() {
        return VarianceReducedFrankWolfe.builder();
    }

    /** Noisy stochastic Frank–Wolfe over an ℓp ball ({@code noisy-sfw}; by default full-batch passes). */
    public static NoisyStochasticFrankWolfe.Builder noisyStochasticFrankWolfe() {
        return NoisyStochasticFrankWolfe.builder();
    }
}
