package org.dpopt.optim;

import java.util.Locale;

/**
 * Keys of <em>non-private</em> diagnostics: numbers computed from the raw training data or from the
 * realized randomness of a run (realized batch sizes, clipped fractions, solver iterations). They are
 * not covered by the privacy report; an optimizer computes them only when built with
 * {@code diagnostics(true)}, and the CLI prints them only under {@code "non_private_diagnostics"}.
 */
public enum Diagnostic {
    /** F̂(ŵ) on the training data. */
    TRAIN_LOSS,
    /** Realized per-example gradient evaluations (for Poisson batches a function of the realized sizes). */
    GRADIENT_EVALUATIONS,
    /** Mean over steps of the fraction of examples whose gradient was clipped. */
    MEAN_CLIPPED_FRACTION,
    /** Realized scalar-subgradient calls of a smoothed oracle. */
    SCALAR_SUBGRADIENT_CALLS,
    /** The Frank–Wolfe gap at the output on the training data. */
    FRANK_WOLFE_GAP,
    /** The Frank–Wolfe gap of the smoothed objective. */
    FRANK_WOLFE_GAP_SMOOTHED,
    /** Risk on a population sample given to the optimizer. */
    POPULATION_RISK,
    /** A solver's certified distance to the exact minimizer. */
    CERTIFIED_DISTANCE,
    /** A solver's certified suboptimality. */
    CERTIFIED_SUBOPTIMALITY,
    /** Iterations a data-dependent solver took. */
    SOLVER_STEPS,
    /** The near-stationarity measure of a weakly convex objective at the output. */
    NEAR_STATIONARITY,
    /** The expected near-stationarity over the random output round (weakly convex objectives). */
    EXPECTED_NEAR_STATIONARITY,
    /** The proximal gap of the output (weakly convex objectives). */
    PROX_GAP,
    /** The index of the output iterate among the run's iterates, when it is chosen at random. */
    OUTPUT_INDEX,
    /** Realized loss-gradient evaluations inside a smoothing oracle's inner solves (τ per smoothed gradient). */
    INNER_GRADIENT_EVALUATIONS,
    /**
     * Which release path a certified solver took: 0 the main solve certified, 1 a backup solve certified,
     * 2 neither, so a data-independent point was released.
     */
    SOLVER_FALLBACK,
    /**
     * The trained classifier's count of correct training labels minus the larger class count, before the
     * noise of the constant check.
     */
    CONSTANT_CHECK_LEAD;

    private final String key = name().toLowerCase(Locale.ROOT);

    /** The snake_case key used in JSON: the constant's name in lower case. */
    public String key() {
        return key;
    }
}
