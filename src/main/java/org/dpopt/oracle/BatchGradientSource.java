package org.dpopt.oracle;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.sampling.BatchSampler;
import org.ejml.data.DMatrixRMaj;

/**
 * Where the per-step clipped batch sums of a noisy SGD run come from: the rows in this JVM
 * ({@link DatasetBatches}) or rows on a cluster (the Spark engine). The loop that adds the noise,
 * updates and records the privacy event is the same for both; only the sums are computed elsewhere.
 *
 * <p>Contract, for step t = 0, 1, …, T−1 in order: {@link #addBatch} adds
 * <pre>   Σ_{a ∈ S_t} ω_a · clip_C(∇f(w; x_a)),   clip_C(g) = g·min(1, C/‖g‖₂)   </pre>
 * over the batch S_t the sampler's plan gives for step t, computed with the shared kernel
 * {@link GradientOracle#addClippedBatch}, so the ℓ2 sensitivity of the sum is C whatever the engine.
 * The source never adds noise.
 */
public interface BatchGradientSource {

    /**
     * What a batch sum touched (non-private: realized counts). A source may return one instance at every
     * step, updated in place (so that a step allocates nothing): read it before the next {@link #addBatch}.
     */
    final class BatchSum {
        private int rows;
        private int clipped;

        /** The counts of one batch. */
        public BatchSum(int rows, int clipped) {
            this.rows = rows;
            this.clipped = clipped;
        }

        /** Contributing rows. */
        public int rows() {
            return rows;
        }

        /** Contributions that were clipped. */
        public int clipped() {
            return clipped;
        }

        /** Overwrites the counts (a source's reused instance); returns this. */
        public BatchSum set(int newRows, int newClipped) {
            rows = newRows;
            clipped = newClipped;
            return this;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof BatchSum b && b.rows == rows && b.clipped == clipped;
        }

        @Override
        public int hashCode() {
            return 31 * rows + clipped;
        }

        @Override
        public String toString() {
            return "BatchSum[rows=" + rows + ", clipped=" + clipped + "]";
        }
    }

    /**
     * Prepares the sampler's batches for a dataset of public size n, before any step and before any
     * noise is drawn. A keyed sampler draws its plan key from rng here, so in seeded mode the whole run
     * still follows from the seed.
     */
    void open(BatchSampler sampler, int n, UniformRandomProvider rng);

    /**
     * Adds step t's clipped batch sum at w into out. Modified: out. Not modified: w.
     *
     * @param clip C &gt; 0, or +∞ for no clipping (audit mutations only)
     */
    BatchSum addBatch(long step, DMatrixRMaj w, double clip, DMatrixRMaj out);

    /** F̂(w) = (1/rows) Σ f(w; z_i) over the rows present (non-private; only for diagnostics). */
    double empiricalRisk(DMatrixRMaj w);
}
