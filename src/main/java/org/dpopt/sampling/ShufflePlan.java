package org.dpopt.sampling;

import java.io.Serializable;
import java.util.Arrays;
import org.dpopt.linalg.Checks;

/**
 * A keyed shuffle plan: persistent or dynamic shuffling (Chua et al., "Scalable DP-SGD: Shuffling vs.
 * Poisson Subsampling", NeurIPS 2024, arXiv:2411.04205, Algorithm 3) by random sort keys. In epoch e
 * record i gets the key h_e(i) ({@link Keys#sortKey}; one key for all epochs when persistent); the records
 * sorted by (key, id) are cut into S = n/b consecutive batches, so step e·S + j holds the records of
 * ranks [jb, (j+1)b). For iid continuous keys the sorted order is a uniformly random permutation (ties,
 * of probability ≤ n²/2⁶⁵, are broken by id), which is the in-memory samplers' law. Pure in (key, id,
 * epoch): a distributed sort computes the same batches.
 *
 * @param n the exact number of records (b | n)
 * @param batchSize b
 * @param epochs E
 * @param persistent one permutation for all epochs (else a fresh one per epoch)
 * @param key the secret plan key
 */
public record ShufflePlan(int n, int batchSize, int epochs, boolean persistent, PlanKey key) implements Serializable {

    private static final long serialVersionUID = 1L;
    private static final int SHUFFLE_TAG = 3;

    /** Validates (b | n). */
    public ShufflePlan {
        Checks.atLeastOne("n", n);
        Checks.atLeastOne("batchSize", batchSize);
        Checks.atLeastOne("epochs", epochs);
        Checks.notNull("key", key);
        FixedPartition.stepsPerEpoch(n, batchSize);
    }

    /** S = n/b. */
    public int stepsPerEpoch() {
        return n / batchSize;
    }

    /** T = E·S. */
    public long steps() {
        return (long) epochs * stepsPerEpoch();
    }

    /** The number of distinct permutations: 1 when persistent, else E. */
    public int permutations() {
        return persistent ? 1 : epochs;
    }

    /** A per-thread evaluator of the sort keys. */
    public Keys keys() {
        return new Keys(new KeyedUniforms(key));
    }

    /** Sort keys (holds a cipher; not thread-safe). */
    public static final class Keys {
        private final KeyedUniforms u;

        private Keys(KeyedUniforms u) {
            this.u = u;
        }

        /** h_e(id), an unsigned 64-bit word (e = 0 for a persistent plan). */
        public long sortKey(int permutation, long id) {
            return u.word(SHUFFLE_TAG, id, permutation);
        }
    }

    /** The order of (key, id) pairs: unsigned key, then id. */
    public static int compare(long keyA, long idA, long keyB, long idB) {
        return keyA != keyB ? Long.compareUnsigned(keyA, keyB) : Long.compare(idA, idB);
    }

    /** The step of the record of rank r (0-based, in permutation p) in epoch e. */
    public long step(int epoch, long rank) {
        return (long) epoch * stepsPerEpoch() + rank / batchSize;
    }

    /** In memory: every step's members in increasing id order. */
    public int[][] materialize() {
        int s = stepsPerEpoch();
        int[][] out = new int[Math.toIntExact(steps())][];
        Keys k = keys();
        long[][] order = new long[n][];
        for (int p = 0; p < permutations(); p++) {
            for (int i = 0; i < n; i++) {
                order[i] = new long[] {k.sortKey(p, i), i};
            }
            Arrays.sort(order, (a, b) -> compare(a[0], a[1], b[0], b[1]));
            for (int e = persistent ? 0 : p; e < (persistent ? epochs : p + 1); e++) {
                for (int j = 0; j < s; j++) {
                    int[] batch = new int[batchSize];
                    for (int a = 0; a < batchSize; a++) {
                        batch[a] = (int) order[j * batchSize + a][1];
                    }
                    Arrays.sort(batch);
                    out[(int) step(e, (long) j * batchSize)] = batch;
                }
            }
        }
        return out;
    }
}
