package org.dpopt.sampling;

import java.io.Serializable;
import java.util.Arrays;
import org.dpopt.linalg.Checks;

/**
 * A keyed per-record plan of (truncated) Poisson batches, the massively parallel construction of
 * Chua et al., "Scalable DP-SGD: Shuffling vs. Poisson Subsampling" (NeurIPS 2024, arXiv:2411.04205,
 * §6 and Appendix A), as pure functions of (key, record id) and (key, step), so that each stage can run
 * as a map or a reduce on any machine and give the same batches:
 *
 * <ol>
 *   <li><b>Map</b> over records ({@link Stream#stepsOf}): record i walks over the steps 0..T−1 by geometric
 *       skips, G_k = ⌊ln U_k / ln(1 − q)⌋ with U_k the k-th uniform of the keyed stream of i, joining the
 *       steps it lands on. The gaps between the steps of a Bernoulli(q) process are iid geometric, so
 *       this is the law of T independent Bernoulli(q) trials, at O(1 + qT) cost instead of O(T).</li>
 *   <li><b>Reduce</b>: group the (step, record) pairs by step.</li>
 *   <li><b>Truncate</b> ({@link Stream#keep}): a step with more than B members keeps the B whose keyed sort
 *       keys h(step, i) are smallest: for iid continuous keys every B-subset is equally likely, which is
 *       the uniform truncation of {@link TruncatedPoissonSampler}. Padding to B slots is done by whoever
 *       consumes the batch (weight-0 slots add nothing).</li>
 * </ol>
 *
 * Uniforms come from {@link KeyedUniforms} (AES as a pseudorandom function of (tag, id, counter)), so
 * the plan's law is that of the direct sampler up to the PRF assumption and the floating-point
 * geometric draw; theory-notes/distributed.md gives the argument. Kept members are returned in
 * increasing id order in memory and on Spark alike, so sums over a batch are taken in the same order.
 *
 * @param n public dataset size (record ids are in [0, n))
 * @param samplingProbability q in (0, 1]
 * @param steps T
 * @param maxBatchSize B, or {@link #NO_TRUNCATION}
 * @param key the secret plan key
 */
public record BatchPlan(int n, double samplingProbability, long steps, int maxBatchSize, PlanKey key)
        implements Serializable {

    private static final long serialVersionUID = 1L;

    /** {@link #maxBatchSize} of a plan that never truncates (plain Poisson). */
    public static final int NO_TRUNCATION = Integer.MAX_VALUE;

    private static final int MAP_TAG = 1;
    private static final int TRUNCATE_TAG = 2;

    /** Validates. */
    public BatchPlan {
        Checks.atLeastOne("n", n);
        Checks.probability("samplingProbability", samplingProbability);
        Checks.atLeastOne("steps", steps);
        if (steps >= (1L << 56)) {
            throw Checks.fail("steps", "below 2^56", steps);
        }
        Checks.atLeastOne("maxBatchSize", maxBatchSize);
        Checks.notNull("key", key);
    }

    /** True if steps with more than B members are cut to B. */
    public boolean truncates() {
        return maxBatchSize != NO_TRUNCATION;
    }

    /** A generator for one thread of work on this plan (tasks make their own). */
    public Stream stream() {
        return new Stream(new KeyedUniforms(key));
    }

    /** The per-thread evaluator of the plan's pure functions (holds a cipher; not thread-safe). */
    public final class Stream {
        private final KeyedUniforms u;

        private Stream(KeyedUniforms u) {
            this.u = u;
        }

        /**
         * Stage 1 (Map): the steps record {@code id} joins, increasing. Pure in (key, id).
         *
         * @param id a record id in [0, n)
         */
        public long[] stepsOf(long id) {
            if (id < 0 || id >= n) {
                throw Checks.fail("record id", "in [0, " + n + ")", id);
            }
            double q = samplingProbability;
            if (q == 1) {
                long[] all = new long[Math.toIntExact(steps)];
                Arrays.setAll(all, k -> k);
                return all;
            }
            double logOneMinusQ = Math.log1p(-q);
            long[] out = new long[4];
            int count = 0;
            long t = -1;
            for (long c = 0;; c++) {
                double skip = Math.floor(Math.log(u.openClosed(MAP_TAG, id, c)) / logOneMinusQ);
                if (skip >= steps - t - 1) {
                    break; // the next step lands at or beyond T (also guards the long conversion)
                }
                t += (long) skip + 1;
                if (count == out.length) {
                    out = Arrays.copyOf(out, 2 * count);
                }
                out[count++] = t;
            }
            return Arrays.copyOf(out, count);
        }

        /** The truncation sort key of record id in step t: an unsigned 64-bit word, pure in (key, t, id). */
        public long sortKey(long step, long id) {
            return u.word(TRUNCATE_TAG, id, step);
        }

        /**
         * Stage 3: the members a step keeps — all of them if there are at most B, else the B with the
         * smallest sort keys (ties, of probability ≤ k²/2⁶⁵, broken by id) — in increasing id order.
         * Not modified: members.
         *
         * @param members the step's members in increasing id order
         */
        public long[] keep(long step, long[] members) {
            if (step < 0 || step >= steps) {
                throw Checks.fail("step", "in [0, " + steps + ")", step);
            }
            int k = members.length;
            if (k <= maxBatchSize) {
                return members.clone();
            }
            long[][] keyed = new long[k][];
            for (int a = 0; a < k; a++) {
                keyed[a] = new long[] {sortKey(step, members[a]), members[a]};
            }
            Arrays.sort(keyed, (x, y) -> x[0] != y[0] ? Long.compareUnsigned(x[0], y[0]) : Long.compare(x[1], y[1]));
            long[] kept = new long[maxBatchSize];
            for (int a = 0; a < maxBatchSize; a++) {
                kept[a] = keyed[a][1];
            }
            Arrays.sort(kept);
            return kept;
        }
    }

    /**
     * The in-memory driver: stage 1 for every record id in [0, n), grouping by step (a counting sort),
     * stage 3 for every step. Memory O(n + qnT).
     *
     * @return for each step, its kept members in increasing order
     */
    public int[][] materialize() {
        if (steps > Integer.MAX_VALUE) {
            throw Checks.fail("steps", "at most " + Integer.MAX_VALUE + " for the in-memory driver", steps);
        }
        int t = (int) steps;
        Stream s = stream();
        int[] counts = new int[t];
        long[][] memberships = new long[n][];
        for (int i = 0; i < n; i++) {
            memberships[i] = s.stepsOf(i);
            for (long b : memberships[i]) {
                counts[(int) b]++;
            }
        }
        long[][] grouped = new long[t][];
        for (int b = 0; b < t; b++) {
            grouped[b] = new long[counts[b]];
            counts[b] = 0;
        }
        for (int i = 0; i < n; i++) { // increasing i: members come out sorted
            for (long b : memberships[i]) {
                grouped[(int) b][counts[(int) b]++] = i;
            }
            memberships[i] = null;
        }
        int[][] out = new int[t][];
        for (int b = 0; b < t; b++) {
            long[] kept = s.keep(b, grouped[b]);
            grouped[b] = null;
            out[b] = new int[kept.length];
            for (int a = 0; a < kept.length; a++) {
                out[b][a] = (int) kept[a];
            }
        }
        return out;
    }
}
