package org.dpopt.accounting;

import org.dpopt.linalg.Checks;

/**
 * What the ABLQ accountant sees in an event: a run of a fixed-partition sampler (deterministic or
 * shuffled batches), a run of truncated Poisson sampling, or anything else, which is accounted as a
 * Poisson (add/remove-one) event. A sampler run composed with other releases is refused.
 */
sealed interface AblqRun {

    /** A run of a fixed-partition sampler: k steps with S steps per epoch. */
    record Fixed(AblqStepEvent step, long count) implements AblqRun {
        long epochsTouched() {
            long s = step.stepsPerEpoch();
            return (count + s - 1) / s;
        }

        long fullEpochs() {
            return count / step.stepsPerEpoch();
        }

        double upperZ() {
            return step.noiseMultiplier() / Math.sqrt(epochsTouched());
        }
    }

    /** A run of truncated Poisson: T independent steps. */
    record Truncated(TruncatedPoissonEvent step, long count) implements AblqRun {
        DpEvent untruncated() {
            return new SelfComposedEvent(new PoissonSampledEvent(step.samplingProbability(), step.event()), count);
        }

        double term(double epsilon) {
            return TruncationTerm.deltaTerm(epsilon, step.datasetSize(), step.samplingProbability(),
                    step.maxBatchSize(), count);
        }

        double eta() {
            return TruncationTerm.overflowProbabilityOverRun(step.datasetSize(), step.samplingProbability(),
                    step.maxBatchSize(), count);
        }
    }

    /** Any other event, accounted as a Poisson (add/remove) event. */
    record Poisson(DpEvent event) implements AblqRun {
    }

    /** Classifies the normalized event: a Fixed or Truncated run, or the normalized event as a Poisson one. */
    static AblqRun classify(DpEvent event, NeighboringRelation relation, String name) {
        Checks.notNull("event", event);
        DpEvent e = DpEvents.normalize(event);
        DpEvent leaf = e instanceof SelfComposedEvent s ? s.event() : e;
        long count = e instanceof SelfComposedEvent s ? s.count() : 1;
        if (leaf instanceof AblqStepEvent a) {
            requireZeroOut(a, relation, name);
            return new Fixed(a, count);
        }
        if (leaf instanceof TruncatedPoissonEvent t) {
            requireZeroOut(t, relation, name);
            if (!(t.event() instanceof GaussianEvent)) {
                throw new UnsupportedEventException(t.event(), name, "only a Gaussian inner event is supported");
            }
            return new Truncated(t, count);
        }
        if (EventShapes.contains(e, AblqStepEvent.class) || EventShapes.contains(e, TruncatedPoissonEvent.class)) {
            throw new UnsupportedEventException(event, name, "a sampler run composed with other releases is not "
                    + "supported; account each run on its own");
        }
        return new Poisson(e);
    }

    private static void requireZeroOut(DpEvent e, NeighboringRelation relation, String name) {
        if (relation != NeighboringRelation.ZERO_OUT) {
            throw new UnsupportedEventException(e, name, "fixed-size batch samplers are accounted under "
                    + "ZERO_OUT only (n public); under add/remove a removal shifts every later batch");
        }
    }
}
