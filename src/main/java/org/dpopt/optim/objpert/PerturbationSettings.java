package org.dpopt.optim.objpert;

import java.util.Locale;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Param;
import org.dpopt.optim.Preset;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunParameters;
import org.dpopt.optim.core.Mutation;

/**
 * The settings both objective-perturbation variants share, as set on their builders.
 *
 * @param lambda λ in λ‖w‖², or NaN for the preset's rule
 * @param preset the preset (λ rule, and the variant's own defaults)
 * @param comparatorRadius a declared bound M on the comparator's norm, or NaN for none
 * @param noiseRule the σ_G rule
 * @param failureProbability p of a data-independent release, or NaN for 1e-3·δ/(1 + e^ε)
 */
record PerturbationSettings(double lambda, Preset preset, double comparatorRadius,
        ObjectivePerturbationNoise.Rule noiseRule, double failureProbability) {

    /** The failure budget of these settings under {@code budget}. */
    FailureBudget failure(PrivacyBudget budget) {
        return FailureBudget.of(failureProbability, budget);
    }

    /**
     * The λ rule of the preset: the paper's needs a bounded domain (M its radius); the practical one uses
     * a declared comparator radius or, without one, 10·β/(εn) on an unbounded domain, and never refuses
     * for smoothness.
     */
    Perturbation.LambdaRule lambdaRule() {
        return preset == Preset.PAPER ? new Perturbation.LambdaRule(Double.NaN, false)
                : new Perturbation.LambdaRule(comparatorRadius, true);
    }

    /**
     * Plans the perturbation at (ε, δ) of the theorem.
     *
     * @param epsilonName how ε is named in messages ("eps", "eps/2", ...)
     */
    Perturbation plan(ProblemShape shape, double epsilon, double delta, String epsilonName, Mutation mutation) {
        return Perturbation.plan(shape, epsilon, delta, lambda, lambdaRule(), noiseRule, epsilonName, mutation);
    }

    /** The parameters both variants publish about the perturbation. */
    RunParameters.Builder parameters(ProblemShape shape, Perturbation pert) {
        double m = shape.domain().radius(shape.dimension());
        return RunParameters.builder()
                .put(Param.DATASET_SIZE, shape.size())
                .put(Param.DIMENSION, shape.dimension())
                .put(Param.ROW_NORM_BOUND, shape.rowNormBound())
                .put(Param.LIPSCHITZ, pert.lipschitz())
                .put(Param.SMOOTHNESS, pert.beta())
                .put(Param.PRESET, preset.key())
                .putIfFinite(Param.RADIUS, Double.isFinite(m) || preset == Preset.PAPER ? m : comparatorRadius)
                .put(Param.CONSTRAINED, !shape.domain().isWholeSpace())
                .put(Param.L2, pert.lambda())
                .put(Param.OBJECTIVE_SIGMA, pert.sigma())
                .put(Param.NOISE_RULE, pert.rule().name().toLowerCase(Locale.ROOT))
                .put(Param.PERTURBATION_EPSILON, pert.epsilon())
                .put(Param.PERTURBATION_DELTA, pert.delta())
                .put(Param.ACCOUNTANT, "basic-composition");
    }

    /** "preset=…, lambda=…, comparatorRadius=…" for the optimizers' {@code toString}. */
    String describe() {
        return "preset=" + preset.key() + ", lambda=" + (Double.isNaN(lambda) ? "theorem" : lambda)
                + ", comparatorRadius=" + comparatorRadius;
    }
}
