package org.dpopt.accounting;

import org.dpopt.linalg.Checks;

/**
 * The Gaussian mechanism q(S) + N(0, σ²I) for a query of ℓ2-sensitivity Δ (under the accountant's
 * relation), described by its noise multiplier z = σ/Δ.
 *
 * @param noiseMultiplier z = σ/Δ &gt; 0
 */
public record GaussianEvent(double noiseMultiplier) implements DpEvent {
    /** Validates z &gt; 0. */
    public GaussianEvent {
        Checks.positive("noiseMultiplier", noiseMultiplier);
    }

    @Override
    public String describe() {
        return "Gaussian(z=" + noiseMultiplier + ")";
    }
}
