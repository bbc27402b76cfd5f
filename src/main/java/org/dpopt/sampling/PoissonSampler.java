package org.dpopt.sampling;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.GaussianEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PoissonSampledEvent;
import org.dpopt.linalg.Checks;

/**
 * Poisson sampling 𝒫_{b,T}: every batch independently contains each record with probability
 * q = b/n (Abadi et al. 2016; paper D §5.2). Batches are drawn by geometric skips, O(qn) work per
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
        double q = samplingProbability(n);
        Checks.notNull("rng", rng);
        if (q >= 1) {
            return (idx, w) -> {
                for (int i = 0; i < n; i++) {
                    idx[i] = i;
                    w[i] = 1;
                }
                return n;
            };
        }
        double logOneMinusQ = Math.log1p(-q);
        return (idx, w) -> {
            int count = 0;
            long i = -1;
            while (true) {
                // skip ~ Geometric(q): number of failures before the next inclusion
                double u = 1.0 - rng.nextDouble(); // in (0, 1]
                long skip = (long) Math.floor(Math.log(u) / logOneMinusQ);
                i += skip + 1;
                if (i >= n || i < 0) {
                    return count;
                }
                idx[count] = (int) i;
                w[count] = 1;
                count++;
            }
        };
    }
}
