package org.dpopt.optim.objpert;

/**
 * A planned exact objective-perturbation run, from public quantities only.
 *
 * @param perturbation λ, σ_G and the theorem's (ε, δ)
 * @param tolerance the certified distance required of the released point, relative to max(1, M)
 * @param newtonSteps the Newton step limit
 */
record ExactSchedule(Perturbation perturbation, double tolerance, int newtonSteps) {
}
