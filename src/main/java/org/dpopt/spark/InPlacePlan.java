package org.dpopt.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.dpopt.oracle.BatchBuffers;
import org.dpopt.oracle.ExactGradientOracle;
import org.dpopt.sampling.BatchPlan;
import org.ejml.data.DMatrixRMaj;
import scala.Tuple2;

/**
 * A {@link BatchPlan} stored next to the rows instead of moved to them: each block of rows keeps a step
 * index (for every step, its members among the block's rows, increasing), built by a map that evaluates
 * {@code stepsOf(id)} for each of its records — no row leaves its partition. Truncation needs the step's
 * members across blocks: the per-step member counts are added up (a reduce of counts, no rows), and for
 * the steps with more than B members a second reduce over (sort key, id) pairs finds the B-th smallest
 * pair, the step's threshold; a member is kept iff its pair is at most the threshold, which is exactly
 * the in-memory {@code keep}. A step then runs one task per block, each reading only its own members of
 * that step through the index: O(B) rows per step in all, every core busy. The partial sums are added on
 * the driver in partition order (so results agree with memory to rounding, not bit for bit).
 */
final class InPlacePlan extends CachedPlan {

    /**
     * The step index of a block of rows (the block itself stays in the rows' cache: a step pairs the two
     * partition by partition, so the cache holds the rows once and counts them once).
     */
    static final class Indexed implements Serializable {
        private static final long serialVersionUID = 2L;
        final long firstId;
        final long[] steps;
        final int[] start;
        final int[] rows;

        Indexed(long firstId, long[] steps, int[] start, int[] rows) {
            this.firstId = firstId;
            this.steps = steps;
            this.start = start;
            this.rows = rows;
        }

        /** The block's members of step t (local row numbers, increasing), before truncation. */
        int[] members(long t) {
            int k = Arrays.binarySearch(steps, t);
            return k < 0 ? new int[0] : Arrays.copyOfRange(rows, start[k], start[k + 1]);
        }

        static Indexed of(RowBlock b, BatchPlan plan) {
            BatchPlan.Stream s = plan.stream();
            long[][] per = new long[b.rows][];
            int m = 0;
            for (int a = 0; a < b.rows; a++) {
                per[a] = s.stepsOf(b.firstId + a);
                m += per[a].length;
            }
            long[] code = new long[m];
            boolean packed = plan.steps() <= Long.MAX_VALUE / Math.max(1, b.rows);
            long[][] pairs = packed ? null : new long[m][];
            int c = 0;
            for (int a = 0; a < b.rows; a++) {
                for (long t : per[a]) {
                    if (packed) {
                        code[c++] = t * b.rows + a;
                    } else {
                        pairs[c++] = new long[] {t, a};
                    }
                }
                per[a] = null;
            }
            if (packed) {
                Arrays.sort(code);
            } else {
                Arrays.sort(pairs, (x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
            }
            long[] steps = new long[m];
            int[] start = new int[m + 1];
            int[] rows = new int[m];
            int distinct = 0;
            long prev = -1;
            for (int k = 0; k < m; k++) {
                long t = packed ? code[k] / b.rows : pairs[k][0];
                rows[k] = (int) (packed ? code[k] % b.rows : pairs[k][1]);
                if (t != prev) {
                    steps[distinct] = t;
                    start[distinct++] = k;
                    prev = t;
                }
            }
            start[distinct] = m;
            return new Indexed(b.firstId, Arrays.copyOf(steps, distinct), Arrays.copyOf(start, distinct + 1), rows);
        }
    }

    private final BatchPlan plan;
    private final JavaRDD<RowBlock> blocks;
    private final JavaRDD<Indexed> index;
    private final Broadcast<HashMap<Long, long[]>> thresholds;

    private InPlacePlan(BatchPlan plan, JavaRDD<RowBlock> blocks, JavaRDD<Indexed> index,
            Broadcast<HashMap<Long, long[]>> thresholds) {
        super(index);
        this.plan = plan;
        this.blocks = blocks;
        this.index = index;
        this.thresholds = thresholds;
    }

    /** Builds and caches the step index of every block, and the thresholds of overfull steps. */
    static InPlacePlan build(DistributedData data, BatchPlan plan) {
        JavaRDD<Indexed> index = data.blocks().map(b -> Indexed.of(b, plan)).persist(StorageLevel.MEMORY_AND_DISK());
        SparkEngine.call(index::count);
        HashMap<Long, long[]> cut = new HashMap<>();
        if (plan.truncates()) {
            int bigB = plan.maxBatchSize();
            List<Long> over = SparkEngine.call(() -> index.flatMapToPair(ix -> {
                List<Tuple2<Long, Long>> out = new ArrayList<>();
                for (int k = 0; k < ix.steps.length; k++) {
                    out.add(new Tuple2<>(ix.steps[k], (long) (ix.start[k + 1] - ix.start[k])));
                }
                return out.iterator();
            }).reduceByKey(Long::sum).filter(t -> t._2() > bigB).keys().collect());
            if (!over.isEmpty()) {
                long[] o = over.stream().mapToLong(Long::longValue).sorted().toArray();
                Broadcast<long[]> bo = SparkEngine.context(data.session()).broadcast(o);
                List<Tuple2<Long, long[]>> th = SparkEngine.call(() -> index.flatMapToPair(ix -> {
                    BatchPlan.Stream s = plan.stream();
                    List<Tuple2<Long, long[]>> out = new ArrayList<>();
                    for (long t : bo.value()) {
                        for (int a : ix.members(t)) {
                            long id = ix.firstId + a;
                            out.add(new Tuple2<>(t, new long[] {s.sortKey(t, id), id}));
                        }
                    }
                    return out.iterator();
                }).groupByKey().mapValues(v -> threshold(v, bigB)).collect());
                for (Tuple2<Long, long[]> t : th) {
                    cut.put(t._1(), t._2());
                }
                bo.destroy();
            }
        }
        return new InPlacePlan(plan, data.blocks(), index, SparkEngine.context(data.session()).broadcast(cut));
    }

    /** The B-th smallest (key, id) pair (unsigned key, then id). */
    private static long[] threshold(Iterable<long[]> pairs, int bigB) {
        List<long[]> all = new ArrayList<>();
        pairs.forEach(all::add);
        all.sort((x, y) -> x[0] != y[0] ? Long.compareUnsigned(x[0], y[0]) : Long.compare(x[1], y[1]));
        return all.get(bigB - 1);
    }

    /** The block's kept members of step t (local rows, increasing). */
    private static int[] kept(Indexed ix, long t, BatchPlan plan, Map<Long, long[]> cut) {
        int[] m = ix.members(t);
        long[] th = cut.get(t);
        if (th == null || m.length == 0) {
            return m;
        }
        BatchPlan.Stream s = plan.stream();
        int k = 0;
        for (int a : m) {
            long id = ix.firstId + a;
            long key = s.sortKey(t, id);
            int c = key != th[0] ? Long.compareUnsigned(key, th[0]) : Long.compare(id, th[1]);
            if (c <= 0) {
                m[k++] = a;
            }
        }
        return Arrays.copyOf(m, k);
    }

    @Override
    public long steps() {
        return plan.steps();
    }

    @Override
    public List<StepSum> sum(long step, double[] ws, double clip, LossCodec codec, int d) {
        BatchPlan p = plan;
        Broadcast<HashMap<Long, long[]>> cut = thresholds;
        JavaRDD<StepSum> job = blocks.zipPartitions(index, (bs, ixs) -> {
            List<StepSum> out = new ArrayList<>(1);
            while (bs.hasNext() && ixs.hasNext()) {
                RowBlock b = bs.next();
                Indexed ix = ixs.next();
                if (ix.firstId != b.firstId) {
                    throw new IllegalStateException("step index of block " + ix.firstId + " met block " + b.firstId);
                }
                long t0 = System.nanoTime();
                int[] idx = kept(ix, step, p, cut.value());
                DMatrixRMaj sum = new DMatrixRMaj(d, 1);
                int clipped = idx.length == 0 ? 0 : new ExactGradientOracle(codec.loss(), Double.POSITIVE_INFINITY)
                        .addClippedBatch(DMatrixRMaj.wrap(d, 1, ws), b.dataset(), idx, 0, idx.length, null, clip,
                                sum, new DMatrixRMaj(d, 1), BatchBuffers.of(idx.length));
                out.add(new StepSum(sum.data, idx.length, clipped, 1, System.nanoTime() - t0));
            }
            return out.iterator();
        });
        return SparkEngine.call(job::collect);
    }

    @Override
    public Map<Long, long[]> members() {
        BatchPlan p = plan;
        Broadcast<HashMap<Long, long[]>> cut = thresholds;
        List<Tuple2<Long, long[]>> parts = index.flatMapToPair(ix -> {
            List<Tuple2<Long, long[]>> out = new ArrayList<>();
            for (long t : ix.steps) {
                int[] k = kept(ix, t, p, cut.value());
                long[] ids = new long[k.length];
                for (int a = 0; a < k.length; a++) {
                    ids[a] = ix.firstId + k[a];
                }
                out.add(new Tuple2<>(t, ids));
            }
            return out.iterator();
        }).collect();
        Map<Long, List<long[]>> grouped = new HashMap<>();
        for (Tuple2<Long, long[]> t : parts) {
            grouped.computeIfAbsent(t._1(), k -> new ArrayList<>()).add(t._2());
        }
        Map<Long, long[]> out = new HashMap<>();
        grouped.forEach((t, l) -> out.put(t, l.stream().flatMapToLong(Arrays::stream).sorted().toArray()));
        return out;
    }

    /** Unpersists the step index and destroys the thresholds' broadcast. */
    @Override
    public void unpersist() {
        super.unpersist();
        thresholds.destroy();
    }
}
