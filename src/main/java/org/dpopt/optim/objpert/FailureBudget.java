package org.dpopt.optim.objpert;

import org.dpopt.accounting.BasicCompositionAccountant;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyAccountant;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunParameters;

/**
 * The planned budget for a solver failure: the probability p (for every dataset) that a run cannot
 * release a certified point, the δ set aside for it, (1 + e^ε)p, and the δ_M = δ − (1 + e^ε)p left
 * for the mechanism.
 *
 * @param probability p
 * @param charge (1 + e^ε)p
 * @param remainingDelta δ_M
 * @param epsilon the budget's ε
 */
record FailureBudget(double probability, double charge, double remainingDelta, double epsilon) {

    /**
     * The failure budget for a given p (NaN: the default 1e-3·δ/(1 + e^ε)).
     *
     * @throws IllegalArgumentException if the charge is not below δ
     */
    static FailureBudget of(double probabilityOrNaN, PrivacyBudget budget) {
        double p = Double.isNaN(probabilityOrNaN)
                ? ObjectivePerturbationNoise.defaultFailureProbability(budget.epsilon(), budget.delta())
                : Checks.openUnit("failureProbability", probabilityOrNaN);
        double charge = ObjectivePerturbationNoise.failureCharge(budget.epsilon(), p);
        double left = budget.delta() - charge;
        if (!(left > 0)) {
            throw Checks.fail("failure probability term (1 + e^eps) p", "below delta = " + budget.delta(), charge);
        }
        return new FailureBudget(p, charge, left, budget.epsilon());
    }

    /** Basic composition (replace-one) plus this failure charge. */
    PrivacyAccountant accountant() {
        return new FailureChargedAccountant(new BasicCompositionAccountant(NeighboringRelation.REPLACE_ONE),
                probability, epsilon);
    }

    /** Publishes p, the charge and the public bound B on ‖G‖. */
    RunParameters.Builder publish(RunParameters.Builder p, double noiseNormBound) {
        return p.put(Param.FAILURE_PROBABILITY, probability)
                .put(Param.FAILURE_DELTA, charge)
                .put(Param.NOISE_NORM_BOUND, noiseNormBound);
    }
}
