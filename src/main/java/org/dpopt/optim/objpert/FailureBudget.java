package org.dpopt.optim.objpert;

import org.dpopt.linalg.Checks;
import org.dpopt.optim.Param;
import org.dpopt.optim.RunParameters;

/**
 * The planned budget for a solver failure: the probability p (for every dataset) that a run cannot
 * release a certified point, the δ charged for it, (1 + e^ε)p, and the public bound B on ‖G‖ whose
 * failure probability is part of p.
 *
 * @param probability p
 * @param charge (1 + e^ε)p
 * @param noiseNormBound B, with P[‖G‖ &gt; B] ≤ the norm's share of p
 */
record FailureBudget(double probability, double charge, double noiseNormBound) {

    /** Validates. */
    FailureBudget {
        Checks.openUnit("failure probability", probability);
        Checks.positive("failure charge", charge);
        Checks.positive("noise norm bound", noiseNormBound);
    }

    /** The parameters it publishes. */
    RunParameters.Builder publish(RunParameters.Builder p) {
        return p.put(Param.FAILURE_PROBABILITY, probability)
                .put(Param.FAILURE_DELTA, charge)
                .put(Param.NOISE_NORM_BOUND, noiseNormBound);
    }
}
