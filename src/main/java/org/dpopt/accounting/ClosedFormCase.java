package org.dpopt.accounting;

import org.dpopt.accounting.pld.PoissonGaussianExact;

/**
 * Events the PLD accountant answers without a privacy loss distribution: a non-private release (ε = ∞),
 * no release at all (ε = 0), Gaussian releases only (one Gaussian with the merged noise multiplier,
 * answered with the exact curve of Balle and Wang, "Improving the Gaussian Mechanism for Differential
 * Privacy", ICML 2018), or a single Poisson-subsampled Gaussian step (the exact closed form of
 * {@link PoissonGaussianExact}, both directions).
 *
 * @param gaussianZ the merged noise multiplier (0 if it underflowed: ε = ∞, δ = 1)
 * @param q the sampling rate of the single subsampled step, 0 if it is not one
 * @param note what the report says of it
 */
record ClosedFormCase(boolean nonPrivate, boolean trivial, double gaussianZ, double q, String note) {

    boolean singleStep() {
        return q > 0;
    }

    /** The closed-form case of a normalized event, or null if it needs a PLD. */
    static ClosedFormCase of(DpEvent e) {
        if (EventShapes.contains(e, NonPrivateEvent.class)) {
            return new ClosedFormCase(true, false, 0, 0, "non-private release");
        }
        if (e instanceof NoOpEvent || EventShapes.allNoOp(e)) {
            return new ClosedFormCase(false, true, 0, 0, "no release");
        }
        double precision = EventShapes.gaussianPrecision(e);
        if (precision > 0) {
            // an infinite precision (merged noise multiplier 0) is answered with ε = ∞, δ = 1
            return new ClosedFormCase(false, false, Double.isInfinite(precision) ? 0 : 1 / Math.sqrt(precision), 0,
                    "exact Gaussian curve (compositions of Gaussians are one Gaussian)");
        }
        if (e instanceof PoissonSampledEvent p && p.event() instanceof GaussianEvent g) {
            return new ClosedFormCase(false, false, g.noiseMultiplier(), p.samplingProbability(),
                    "one Poisson-subsampled Gaussian step: exact closed-form curve (both directions)");
        }
        return null;
    }

    /** Upper bound on ε at δ (Balle–Wang upper end of its bracket for the Gaussian). */
    double upperEpsilon(double delta) {
        if (singleStep()) {
            return PoissonGaussianExact.singleStepEpsilon(q, gaussianZ, delta, true);
        }
        return nonPrivate ? Double.POSITIVE_INFINITY : trivial ? 0
                : gaussianZ > 0 ? GaussianMechanism.epsilon(delta, gaussianZ) : Double.POSITIVE_INFINITY;
    }

    /** Upper bound on δ at ε. */
    double upperDelta(double epsilon) {
        if (singleStep()) {
            return PoissonGaussianExact.singleStepDelta(q, gaussianZ, epsilon, true);
        }
        return nonPrivate ? 1 : trivial ? 0 : gaussianZ > 0 ? GaussianMechanism.delta(epsilon, gaussianZ) : 1;
    }

    /** Certified lower bound on ε at δ for the event {@code e} this case was made of. */
    double lowerEpsilon(DpEvent e, double delta) {
        if (singleStep()) {
            return PoissonGaussianExact.singleStepEpsilon(q, gaussianZ, delta, false);
        }
        return nonPrivate ? Double.POSITIVE_INFINITY : trivial ? 0 : LowerBounds.epsilon(e, delta, false);
    }

    /** Certified lower bound on δ at ε for the event {@code e} this case was made of. */
    double lowerDelta(DpEvent e, double epsilon) {
        if (singleStep()) {
            return PoissonGaussianExact.singleStepDelta(q, gaussianZ, epsilon, false);
        }
        return nonPrivate ? 1 : trivial ? 0 : LowerBounds.delta(e, epsilon);
    }
}
