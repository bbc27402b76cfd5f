package org.dpopt.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.oracle.BatchBuffers;
import org.dpopt.oracle.ExactGradientOracle;
import org.dpopt.sampling.BatchPlan;
import org.dpopt.sampling.ShufflePlan;
import org.ejml.data.DMatrixRMaj;
import scala.Tuple2;

/**
 * A {@link BatchPlan} built on the executors and stored by step: map (every record evaluates
 * {@code stepsOf(id)} and emits (step, row) pairs) → group by step with a range partitioner (step t in
 * partition ⌊tP/T⌋) → truncate ({@code keep}) and pack each step's kept rows, in increasing id order, into
 * one {@link StepBatch}; cached. Nothing is collected to the driver. A step then reads one partition and
 * decodes only its own batch: O(B) rows per step, never a scan of the data.
 */
final class SparkBatchPlan extends CachedPlan {

    /**
     * A (step, row) pair of stage 1.
     *
     * @param id the record's id
     * @param x its d features
     * @param y its label
     */
    record Member(long id, double[] x, double y) implements Serializable {
        /** Row a of a block. */
        static Member of(RowBlock b, int a) {
            return new Member(b.firstId + a, b.row(a), b.y[a]);
        }
    }

    private final long steps;
    private final StepPartitioner partitioner;
    private final JavaRDD<StepBatch> batches;

    private SparkBatchPlan(long steps, StepPartitioner partitioner, JavaRDD<StepBatch> batches) {
        super(batches);
        this.steps = steps;
        this.partitioner = partitioner;
        this.batches = batches;
    }

    /**
     * Builds and caches the plan's batches of data (one Spark job; the rows stay on the executors).
     *
     * @param partitions P, the number of step ranges (at most T)
     */
    static SparkBatchPlan build(DistributedData data, BatchPlan plan, int partitions) {
        Checks.notNull("plan", plan);
        StepPartitioner part = StepPartitioner.atMost(plan.steps(), partitions);
        int d = data.dimension();
        double bound = data.rowNormBound();
        JavaPairRDD<Long, Member> pairs = data.blocks().flatMapToPair(b -> {
            BatchPlan.Stream s = plan.stream();
            List<Tuple2<Long, Member>> out = new ArrayList<>();
            for (int a = 0; a < b.rows; a++) {
                long id = b.firstId + a;
                long[] steps = s.stepsOf(id);
                if (steps.length == 0) {
                    continue;
                }
                Member m = Member.of(b, a);
                for (long t : steps) {
                    out.add(new Tuple2<>(t, m));
                }
            }
            return out.iterator();
        });
        return store(pairs, part, (t, ids) -> plan.stream().keep(t, ids), plan.steps(), d, bound);
    }

    /** What stage 3 keeps of a step's members (increasing ids in, increasing ids out). */
    @FunctionalInterface
    interface Keep extends Serializable {
        long[] keep(long step, long[] ids);
    }

    /**
     * Builds and caches a keyed shuffle plan: every record gets its sort key per permutation, one global
     * sort by (permutation, key, id) gives each record its rank r in each permutation, and the record joins
     * step e·S + ⌊r/b⌋ of every epoch e that uses that permutation; then group by step as for Poisson plans.
     * Needs the number of rows to be the plan's n (checked by the run core before this is called).
     */
    static SparkBatchPlan buildShuffle(DistributedData data, ShufflePlan plan, int partitions) {
        Checks.notNull("plan", plan);
        StepPartitioner part = StepPartitioner.atMost(plan.steps(), partitions);
        int d = data.dimension();
        long n = plan.n();
        JavaPairRDD<long[], Member> keyed = data.blocks().flatMapToPair(b -> {
            ShufflePlan.Keys k = plan.keys();
            List<Tuple2<long[], Member>> out = new ArrayList<>();
            for (int a = 0; a < b.rows; a++) {
                long id = b.firstId + a;
                Member m = Member.of(b, a);
                for (int q = 0; q < plan.permutations(); q++) {
                    out.add(new Tuple2<>(new long[] {q, k.sortKey(q, id), id}, m));
                }
            }
            return out.iterator();
        });
        JavaPairRDD<Long, Member> pairs = keyed.sortByKey(new KeyOrder(), true, part.numPartitions()).zipWithIndex()
                .flatMapToPair(t -> {
                    long[] key = t._1()._1();
                    int q = (int) key[0];
                    long rank = t._2() - q * n;
                    List<Tuple2<Long, Member>> out = new ArrayList<>();
                    for (int e = plan.persistent() ? 0 : q; e < (plan.persistent() ? plan.epochs() : q + 1); e++) {
                        out.add(new Tuple2<>(plan.step(e, rank), t._1()._2()));
                    }
                    return out.iterator();
                });
        return store(pairs, part, (t, ids) -> ids, plan.steps(), d, data.rowNormBound());
    }

    /** (permutation, unsigned key, id) order of the shuffle sort. */
    static final class KeyOrder implements java.util.Comparator<long[]>, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public int compare(long[] a, long[] b) {
            return a[0] != b[0] ? Long.compare(a[0], b[0]) : ShufflePlan.compare(a[1], a[2], b[1], b[2]);
        }
    }

    /** Group by step into the partitioner's ranges, keep, pack, cache (one job). */
    private static SparkBatchPlan store(JavaPairRDD<Long, Member> pairs, StepPartitioner part, Keep keep, long steps,
            int d, double bound) {
        JavaPairRDD<Long, ArrayList<Member>> grouped = pairs.combineByKey(m -> {
            ArrayList<Member> l = new ArrayList<>();
            l.add(m);
            return l;
        }, (l, m) -> {
            l.add(m);
            return l;
        }, (l1, l2) -> {
            l1.addAll(l2);
            return l1;
        }, part);
        JavaRDD<StepBatch> batches = grouped.mapPartitions(it -> pack(it, keep, d, bound), true)
                .persist(StorageLevel.MEMORY_AND_DISK());
        SparkEngine.call(batches::count);
        return new SparkBatchPlan(steps, part, batches);
    }

    private static Iterator<StepBatch> pack(Iterator<Tuple2<Long, ArrayList<Member>>> it, Keep keep, int d,
            double bound) {
        List<StepBatch> out = new ArrayList<>();
        while (it.hasNext()) {
            Tuple2<Long, ArrayList<Member>> g = it.next();
            ArrayList<Member> ms = g._2();
            ms.sort((a, b) -> Long.compare(a.id(), b.id()));
            long[] ids = new long[ms.size()];
            for (int a = 0; a < ids.length; a++) {
                ids[a] = ms.get(a).id();
            }
            long[] kept = keep.keep(g._1(), ids);
            double[] x = new double[kept.length * d];
            double[] y = new double[kept.length];
            int a = 0;
            for (int r = 0; r < ms.size() && a < kept.length; r++) {
                Member m = ms.get(r);
                if (m.id() == kept[a]) {
                    System.arraycopy(m.x(), 0, x, a * d, d);
                    y[a++] = m.y();
                }
            }
            out.add(new StepBatch(g._1(), kept, d, bound, x, y));
        }
        return out.iterator();
    }

    @Override
    public long steps() {
        return steps;
    }

    /** One task, on the one partition holding step t's batch; it decodes only that batch. */
    @Override
    public List<StepSum> sum(long step, double[] ws, double clip, LossCodec codec, int d) {
        int p = partitioner.partitionOf(step);
        JavaRDD<StepSum> job = batches.mapPartitions(it -> {
            long t0 = System.nanoTime();
            int visited = 0;
            while (it.hasNext()) {
                StepBatch b = it.next();
                visited++;
                if (b.step() == step) {
                    Dataset ds = b.dataset();
                    int k = ds.size();
                    int[] idx = new int[k];
                    for (int a = 0; a < k; a++) {
                        idx[a] = a;
                    }
                    DMatrixRMaj sum = new DMatrixRMaj(d, 1);
                    int clipped = new ExactGradientOracle(codec.loss(), Double.POSITIVE_INFINITY).addClippedBatch(
                            DMatrixRMaj.wrap(d, 1, ws), ds, idx, 0, k, null, clip, sum, new DMatrixRMaj(d, 1),
                            BatchBuffers.of(Math.max(1, k)));
                    return List.of(new StepSum(sum.data, k, clipped, visited, System.nanoTime() - t0)).iterator();
                }
            }
            return List.of(new StepSum(new double[d], 0, 0, visited, System.nanoTime() - t0)).iterator();
        }, true);
        List<StepSum>[] res = SparkEngine.call(() -> job.collectPartitions(new int[] {p}));
        return res[0];
    }

    @Override
    public Map<Long, long[]> members() {
        Map<Long, long[]> out = new HashMap<>();
        for (Tuple2<Long, long[]> t : batches.map(b -> new Tuple2<>(b.step(), b.ids())).collect()) {
            out.put(t._1(), t._2());
        }
        return out;
    }
}
