package org.dpopt.oracle;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Vectors;
import org.ejml.data.DMatrixRMaj;

/**
 * Per-example gradients (exact, or of a smoothed surrogate) with a <em>declared</em> norm bound.
 *
 * <p>The norm bound is what noisy releases are calibrated against, so every implementation must
 * guarantee {@code ‖gradient(w, i)‖₂ ≤ normBound()} for every input — by construction or by
 * clamping — not merely on typical data.
 */
public interface GradientOracle {

    /** The per-example gradient at w for row i, written into out. Modified: out. Not modified: w. */
    void gradient(DMatrixRMaj w, Dataset data, int i, DMatrixRMaj out);

    /** A bound on ‖gradient‖₂ valid for all inputs. */
    double normBound();

    /** Scalar-subgradient (or loss-gradient) evaluations per call, for cost reporting. */
    default int costPerCall() {
        return 1;
    }

    /**
     * The per-example clip-and-sum kernel of every per-example algorithm:
     * <pre>   out ← out + Σ_{a ∈ [from, to)} ω_a · clip_C(g(w; x_{idx[a]})),   clip_C(g) = g·min(1, C/‖g‖₂)   </pre>
     * where g is {@link #gradient}, ω_a = weights[a] (1 if weights is null). Slots with ω_a = 0
     * (padding) and indices at or beyond the number of rows (records of a declared size that are absent)
     * contribute nothing. Allocation-free. Modified: out, scratch (d×1). Not modified: w. For a
     * one-element range out may be w itself (a one-example SGD step): the gradient is evaluated before
     * out is written.
     *
     * @param clip C &gt; 0, or +∞ for no clipping
     * @return the number of contributing examples whose gradient was clipped
     */
    default int addClippedBatch(DMatrixRMaj w, Dataset data, int[] idx, int from, int to, double[] weights,
            double clip, DMatrixRMaj out, DMatrixRMaj scratch) {
        int rows = data.size();
        int clipped = 0;
        for (int a = from; a < to; a++) {
            double omega = weights == null ? 1.0 : weights[a];
            int i = idx[a];
            if (omega == 0 || i >= rows) {
                continue;
            }
            gradient(w, data, i, scratch);
            if (Vectors.clipL2(scratch, clip) < 1) {
                clipped++;
            }
            Vectors.axpy(omega, scratch, out);
        }
        return clipped;
    }

    /**
     * {@link #addClippedBatch(DMatrixRMaj, Dataset, int[], int, int, double[], double, DMatrixRMaj,
     * DMatrixRMaj)} with reusable buffers that a kernel may use to order its memory reads (independent loads issued
     * before the dependent arithmetic); the same sums, bit for bit. Modified: out, scratch, buffers.
     */
    default int addClippedBatch(DMatrixRMaj w, Dataset data, int[] idx, int from, int to, double[] weights,
            double clip, DMatrixRMaj out, DMatrixRMaj scratch, BatchBuffers buffers) {
        return addClippedBatch(w, data, idx, from, to, weights, clip, out, scratch);
    }
}
