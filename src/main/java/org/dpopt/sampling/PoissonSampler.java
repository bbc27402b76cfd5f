package org.dpopt.sampling;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.linalg.Checks;

/**
 * Poisson sampling 𝒫_{b,T}: every batch independently contains each record with probability
 * q = b/n (Abadi et al., CCS 2016, arXiv:1607.00133; the ABLQ view of Chua et al., NeurIPS 2024,
 * arXiv:2411.04205). Batches are drawn by geometric skips, O(qn) work per
 * batch, and come out sorted (good for memory locality).
 *
 * <p>Privacy event: {@code SelfComposed(PoissonSampled(q, Gaussian(z)), T)} under add/remove-one.
 *
 * @param expectedBatchSize b (≥ 1, at most n at use time)
 * @param steps T
 */
public record PoissonSampler(double expectedBatchSize, long steps) implements PoissonBatchSampler {

    /** Validates. */
    public PoissonSampler {
        Checks.positive("expectedBatchSize", expectedBatchSize);
        Checks.atLeastOne("steps", steps);
    }

    /** A Poisson sampler with expected batch b running for the given number of epochs (T = ⌈E·n/b⌉). */
    public static PoissonSampler epochs(double expectedBatchSize, double epochs, int n) {
        return new PoissonSampler(expectedBatchSize, Samplers.epochSteps(epochs, n, expectedBatchSize));
    }

    @Override
    public String name() {
        return "poisson";
    }

    /** q = b/n. */
    public double samplingProbability(int n) {
        return PoissonBatchSampler.inclusionProbability(expectedBatchSize, n);
    }

    @Override
    public int maxBatchSlots(int n) {
        return n;
    }

    /** The public starting capacity {@link BatchSlots#poissonCapacity}: about b + 8√b, not n. */
    @Override
    public int initialBatchSlots(int n) {
        samplingProbability(n);
        return BatchSlots.poissonCapacity(expectedBatchSize, n);
    }

    @Override
    public NeighboringRelation relation() {
        return NeighboringRelation.ADD_OR_REMOVE_ONE;
    }

    @Override
    public DpEvent stepEvent(int n, double noiseMultiplier) {
        return new PoissonSampledEvent(samplingProbability(n), new GaussianEvent(noiseMultiplier));
    }

    @Override
    public BatchIterator iterator(int n, UniformRandomProvider rng) {
        return over(null, n, samplingProbability(n), rng);
    }

    /**
     * Poisson batches over a sub-range of records: every call includes each of the first
     * {@code length} entries of {@code records} independently with probability q and writes the
     * included records (in order) with weight 1. Geometric skips: O(q·length) work per batch.
     *
     * @param records the population (e.g. one part of a partition); null for 0..length−1
     * @param length how many entries of {@code records} form the population
     * @param q the inclusion probability in (0, 1] (1: every record)
     * @param rng the source of the skips
     */
    public static BatchIterator over(int[] records, int length, double q, UniformRandomProvider rng) {
        Checks.notNull("rng", rng);
        if (!(q > 0 && q <= 1)) {
            throw Checks.fail("inclusion probability q", "in (0, 1]", q);
        }
        if (length < 0 || (records != null && length > records.length)) {
            throw Checks.fail("length", "in [0, " + (records == null ? "n" : records.length) + "]", length);
        }
        return new Skips(records, length, q, rng);
    }

    /**
     * The geometric-skip iterator: the draws, and so the records, do not depend on the arrays written
     * into; {@link #next(BatchSlots)} only grows them when a batch does not fit.
     */
    private static final class Skips implements BatchIterator {
        private final int[] records;
        private final int length;
        private final boolean all;
        private final double logOneMinusQ;
        private final UniformRandomProvider rng;

        Skips(int[] records, int length, double q, UniformRandomProvider rng) {
            this.records = records;
            this.length = length;
            this.all = q >= 1;
            this.logOneMinusQ = all ? 0 : Math.log1p(-q);
            this.rng = rng;
        }

        @Override
        public int next(int[] idx, double[] w) {
            return fill(idx, w, null);
        }

        @Override
        public int next(BatchSlots slots) {
            if (all) {
                slots.ensureCapacity(length);
            }
            return fill(slots.indices(), slots.weights(), slots);
        }

        private int fill(int[] idx, double[] w, BatchSlots slots) {
            if (all) {
                for (int i = 0; i < length; i++) {
                    idx[i] = records == null ? i : records[i];
                    w[i] = 1;
                }
                return length;
            }
            int count = 0;
            long i = -1;
            while (true) {
                // skip ~ Geometric(q): number of failures before the next inclusion
                double u = 1.0 - rng.nextDouble(); // in (0, 1]
                long skip = (long) Math.floor(Math.log(u) / logOneMinusQ);
                i += skip + 1;
                if (i >= length || i < 0) {
                    return count;
                }
                if (count == idx.length && slots != null) {
                    slots.ensureCapacity(count + 1);
                    idx = slots.indices();
                    w = slots.weights();
                }
                idx[count] = records == null ? (int) i : records[(int) i];
                w[count] = 1;
                count++;
            }
        }
    }
}
