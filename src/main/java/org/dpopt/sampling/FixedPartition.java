package org.dpopt.sampling;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.AblqStepEvent;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.dpopt.linalg.Checks;

/**
 * Shared arithmetic of the fixed-size, one-pass-per-epoch samplers of Chua et al. 2024 (Algorithm 3): the
 * "valid" (n, b, T) check, the in-place Fisher–Yates shuffle and the batch iterator.
 */
final class FixedPartition {
    private FixedPartition() {
    }

    /** S = n/b, refusing (n, b) unless b divides n. */
    static int stepsPerEpoch(int n, int batchSize) {
        Checks.atLeastOne("n", n);
        if (batchSize > n) {
            throw Checks.fail("batchSize", "at most the dataset size " + n, batchSize);
        }
        if (n % batchSize != 0) {
            throw Checks.fail("batchSize", "a divisor of the dataset size " + n
                    + " (valid (n, b, T): S = n/b and E = T/S integers; Chua et al. 2024 §2)", batchSize);
        }
        return n / batchSize;
    }

    /** The integer epoch count E from a real-valued recipe argument, refusing non-integers. */
    static int integerEpochs(double epochs) {
        if (!(epochs >= 1) || epochs != Math.rint(epochs) || epochs > Integer.MAX_VALUE) {
            throw Checks.fail("epochs", "a positive integer for deterministic and shuffled batches", epochs);
        }
        return (int) epochs;
    }

    /** Fills {@code perm} with 0..n−1. */
    static void identity(int[] perm) {
        for (int i = 0; i < perm.length; i++) {
            perm[i] = i;
        }
    }

    /** Uniform random permutation in place (Commons RNG's Fisher–Yates, the same draws as {@link RecordOrder}). */
    static void shuffle(int[] perm, UniformRandomProvider rng) {
        PermutationSampler.shuffle(rng, perm);
    }

    /** Copies batch {@code t mod S} of the order {@code perm} (null: identity) into the slots. */
    static int fill(int[] perm, long step, int batchSize, int stepsPerEpoch, int[] idx, double[] w) {
        int start = (int) (step % stepsPerEpoch) * batchSize;
        for (int a = 0; a < batchSize; a++) {
            idx[a] = perm == null ? start + a : perm[start + a];
            w[a] = 1;
        }
        return batchSize;
    }

    /**
     * A fresh iterator whose batch t is block t mod S of the current record order, S = n/b (refusing
     * (n, b) unless b divides n, then a null rng). The order is drawn never (identity order), once per
     * iterator, or at every epoch start, as {@code order} says.
     */
    static BatchSampler.BatchIterator iterator(int n, int batchSize, UniformRandomProvider rng,
            AblqStepEvent.BatchOrder order) {
        int s = stepsPerEpoch(n, batchSize);
        Checks.notNull("rng", rng);
        long[] t = {0};
        if (order == AblqStepEvent.BatchOrder.DETERMINISTIC) {
            return (idx, w) -> fill(null, t[0]++, batchSize, s, idx, w);
        }
        int[] perm = new int[n];
        identity(perm);
        if (order == AblqStepEvent.BatchOrder.PERSISTENT_SHUFFLE) {
            shuffle(perm, rng);
            return (idx, w) -> fill(perm, t[0]++, batchSize, s, idx, w);
        }
        return (idx, w) -> {
            if (t[0] % s == 0) {
                shuffle(perm, rng);
            }
            return fill(perm, t[0]++, batchSize, s, idx, w);
        };
    }
}
