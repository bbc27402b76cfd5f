package org.dpopt.optim.smoothing;

import java.util.Collections;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.loss.Loss;
import org.dpopt.loss.ProblemShape;
import org.dpopt.optim.Param;
import org.dpopt.optim.RunParameters;
import org.dpopt.oracle.GllBisectionProx;
import org.dpopt.sampling.RecordOrder;

/**
 * A planned Phased-SGD run, from public quantities only: phase i (0-based) has n_i records, step η_i,
 * sensitivity Δ_i and releases its average with {@code GaussianEvent(z)} at σ_i = z·Δ_i. Immutable
 * (the arrays are private copies; their accessors return copies).
 *
 * @param sizes n_i
 * @param steps η_i
 * @param sensitivities Δ_i = 2η_i(L + e·n_i)
 * @param noiseMultiplier z
 * @param eta η, the base step
 * @param diameter D (the comparator radius when unconstrained)
 * @param constrained whether W is a bounded set (else ℝ^d)
 * @param lipschitz L, the clip norm of every per-example step
 * @param smoothing the oracle choice
 * @param order the data-independent read order of the records
 * @param lastIterate whether each phase releases its last iterate (practical preset) instead of its average
 */
record PhasedSchedule(int[] sizes, double[] steps, double[] sensitivities, double noiseMultiplier, double eta,
        double diameter, boolean constrained, double lipschitz, PhasedSchedule.Smoothing smoothing,
        RecordOrder order, boolean lastIterate) {

    /**
     * The oracle choice: exact gradients of {@code loss}, or the bisection prox.
     *
     * @param loss the loss the phases differentiate (the prox itself when smoothing)
     * @param prox the bisection prox, or null for exact gradients
     * @param smoothness β in w of the differentiated loss
     * @param gradientError e, the per-gradient error bound (0 for exact gradients)
     */
    record Smoothing(Loss loss, GllBisectionProx prox, double smoothness, double gradientError) {
    }

    /** Copies the arrays. */
    PhasedSchedule {
        sizes = sizes.clone();
        steps = steps.clone();
        sensitivities = sensitivities.clone();
    }

    /** The statement for k phases at noise multiplier z: {@code Parallel[Gaussian(z) × k]}. */
    static DpEvent statement(int phases, double z) {
        return new ParallelComposedEvent(Collections.nCopies(phases, (DpEvent) new GaussianEvent(z)));
    }

    /** The planned public parameters (η₁ as the learning rate, σ₁ and Δ₁ of the first release). */
    RunParameters parameters(ProblemShape shape, String noise, String preset, String accountant) {
        RunParameters.Builder p = RunParameters.builder()
                .put(Param.DATASET_SIZE, shape.size())
                .put(Param.DIMENSION, shape.dimension())
                .put(Param.LIPSCHITZ, lipschitz)
                .put(Param.SMOOTHNESS, smoothness())
                .put(constrained ? Param.DIAMETER : Param.RADIUS, diameter)
                .put(Param.CONSTRAINED, constrained)
                .put(Param.PHASES, phases())
                .put(Param.STEPS, totalSteps())
                .put(Param.CLIP_NORM, lipschitz)
                .put(Param.LEARNING_RATE, step(0))
                .put(Param.NOISE_MULTIPLIER, noiseMultiplier)
                .put(Param.SENSITIVITY, sensitivity(0))
                .put(Param.SIGMA, sigma(0))
                .put(Param.OUTPUT, lastIterate ? "last-phase-last-iterate" : "last-phase-average")
                .put(Param.NOISE_RULE, noise)
                .put(Param.PRESET, preset)
                .put(Param.ACCOUNTANT, accountant);
        GllBisectionProx prox = prox();
        if (prox != null) {
            p.put(Param.INNER_STEPS, prox.halvings())
                    .put(Param.SMOOTHING_ACCURACY, prox.accuracy())
                    .put(Param.GRADIENT_ERROR, gradientError());
        }
        return p.build();
    }

    int phases() {
        return sizes.length;
    }

    /** All η_i (a copy). */
    @Override
    public double[] steps() {
        return steps.clone();
    }

    /** All Δ_i (a copy). */
    @Override
    public double[] sensitivities() {
        return sensitivities.clone();
    }

    /** n_i. */
    int size(int i) {
        return sizes[i];
    }

    /** All n_i (a copy). */
    @Override
    public int[] sizes() {
        return sizes.clone();
    }

    /** Σ n_i, the number of SGD steps. */
    long totalSteps() {
        long s = 0;
        for (int x : sizes) {
            s += x;
        }
        return s;
    }

    /** η_i. */
    double step(int i) {
        return steps[i];
    }

    /** Δ_i = 2η_i(L + e·n_i). */
    double sensitivity(int i) {
        return sensitivities[i];
    }

    /** σ_i = z·Δ_i. */
    double sigma(int i) {
        return noiseMultiplier * sensitivities[i];
    }

    /** The event each phase's release records. */
    DpEvent phaseEvent() {
        return new GaussianEvent(noiseMultiplier);
    }

    /** The bisection prox, or null for exact gradients. */
    GllBisectionProx prox() {
        return smoothing.prox();
    }

    double smoothness() {
        return smoothing.smoothness();
    }

    double gradientError() {
        return smoothing.gradientError();
    }
}
