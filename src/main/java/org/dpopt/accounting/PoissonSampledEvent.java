package org.dpopt.accounting;

import org.dpopt.linalg.Checks;

/**
 * The inner event applied to a Poisson sample of the data: each record is included independently
 * with probability q. Accounted under add/remove-one.
 *
 * @param samplingProbability q ∈ (0, 1]
 * @param event the mechanism applied to the sample
 */
public record PoissonSampledEvent(double samplingProbability, DpEvent event) implements DpEvent {
    /** Validates q and the inner event. */
    public PoissonSampledEvent {
        Checks.probability("samplingProbability", samplingProbability);
        Checks.notNull("event", event);
    }

    @Override
    public String describe() {
        return "PoissonSampled(q=" + samplingProbability + ", " + event.describe() + ")";
    }
}
