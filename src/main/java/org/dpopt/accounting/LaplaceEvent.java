package org.dpopt.accounting;

import org.dpopt.linalg.Checks;

/**
 * The Laplace mechanism q(S) + Lap(b) per coordinate for a query of ℓ1-sensitivity Δ₁, described by
 * its noise multiplier b/Δ₁. It is (Δ₁/b)-DP.
 *
 * @param noiseMultiplier b/Δ₁ &gt; 0
 */
public record LaplaceEvent(double noiseMultiplier) implements DpEvent {
    /** Validates b/Δ₁ &gt; 0. */
    public LaplaceEvent {
        Checks.positive("noiseMultiplier", noiseMultiplier);
    }

    @Override
    public String describe() {
        return "Laplace(b/Δ=" + noiseMultiplier + ")";
    }
}
