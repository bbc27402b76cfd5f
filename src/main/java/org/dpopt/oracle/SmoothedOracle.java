package org.dpopt.oracle;

/**
 * The gradient oracle of a smoothed surrogate for <em>one run</em>: it owns the run's scratch vectors
 * and counts the (sub)gradient evaluations of the unsmoothed loss its inner solves make. Made by
 * {@link SmoothedLoss#newOracle}; not thread-safe (one per run, never shared).
 */
public interface SmoothedOracle extends GradientOracle {

    /**
     * Evaluations of the unsmoothed loss's (sub)gradient made by this oracle so far: scalar
     * subgradient calls of a bisection prox, or loss-gradient steps of an inner subgradient solve. A
     * cost count that depends on the data: a non-private diagnostic.
     */
    long baseEvaluations();
}
