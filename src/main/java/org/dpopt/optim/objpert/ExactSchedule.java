package org.dpopt.optim.objpert;

/**
 * A planned exact objective-perturbation run, from public quantities only.
 *
 * @param perturbation λ, σ_G and the theorem's (ε, δ_M), δ_M = δ − (1 + e^ε)p
 * @param tolerance the certified distance required of the released point, relative to max(1, M)
 * @param newtonSteps the Newton step limit
 * @param backupSteps K, the backup solver's fixed step count
 * @param backupTarget τ, the absolute certified distance the backup solve must reach
 */
record ExactSchedule(Perturbation perturbation, double tolerance, int newtonSteps, int backupSteps,
        double backupTarget) {
}
