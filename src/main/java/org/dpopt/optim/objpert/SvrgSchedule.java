package org.dpopt.optim.objpert;

import org.dpopt.accounting.GaussianEvent;

/**
 * A planned approximate objective-perturbation run, from public quantities only.
 *
 * @param perturbation λ, σ_G and the theorem's (ε/2, δ_M/2)
 * @param alpha α, the certified suboptimality required of the SVRG iterate
 * @param distanceBound r = √(2α/λ) ≥ ‖w̃ − ŵ‖
 * @param outputEvent the Gaussian event of the output release (sensitivity 2r)
 * @param epochs E, the epoch budget (public: from B, not from G)
 * @param earlyStop stop SVRG at the first certified epoch (data-dependent time)
 */
record SvrgSchedule(Perturbation perturbation, double alpha, double distanceBound, GaussianEvent outputEvent,
        int epochs, boolean earlyStop) {

    /** The note on the budget split, e.g. "(0.9 eps, delta_M/2) objective perturbation + ...". */
    String splitNote() {
        String e1 = perturbation.epsilon() + " (the perturbation's share of eps)";
        return "split (" + e1 + ", delta_M/2) objective perturbation + (the rest of eps, delta_M/2) Gaussian output "
                + "noise, delta_M = delta - (1 + e^eps) p";
    }

    /** Δ_H = 2r, the ℓ2 sensitivity of the certified iterate. */
    double outputSensitivity() {
        return 2 * distanceBound;
    }
}
