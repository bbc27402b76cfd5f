package org.dpopt.audit;

import org.ejml.data.DMatrixRMaj;

/**
 * What an auditor sees of one run, for one canary: the released model and, for white-box statistics,
 * every noisy release the privacy proof covers, reduced to its projection on the canary's direction.
 *
 * @param projections ⟨v_t, u⟩ for each Gaussian release v_t (after its noise), in order
 * @param noiseScales σ_t = z_t·Δ_t, the recorded standard deviation of release t's noise
 * @param sensitivities Δ_t, the recorded ℓ2 sensitivity of release t
 * @param samplingRates q_t, the Poisson sampling probability of release t's event (1 if not sampled)
 * @param parts the part of a parallel composition release t belongs to (−1 outside one)
 * @param selections the index chosen by each report-noisy-max release, in order
 * @param solution the released model
 * @param direction the canary's direction u (d×1)
 */
public record RunView(double[] projections, double[] noiseScales, double[] sensitivities, double[] samplingRates,
        int[] parts, int[] selections, DMatrixRMaj solution, DMatrixRMaj direction) {

    /** The number of Gaussian releases observed. */
    public int releases() {
        return projections.length;
    }

    /** ⟨w, u⟩ for the released model w. */
    public double modelProjection() {
        double s = 0;
        int d = Math.min(direction.getNumElements(), solution.getNumElements());
        for (int j = 0; j < d; j++) {
            s += direction.data[j] * solution.data[j];
        }
        return s;
    }
}
