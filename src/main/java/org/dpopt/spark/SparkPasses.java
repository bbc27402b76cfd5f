package org.dpopt.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.oracle.DataPasses;
import org.dpopt.oracle.DatasetPasses;
import org.ejml.data.DMatrixRMaj;

/**
 * {@link DataPasses} over {@link DistributedData}. A pass is one {@code treeAggregate}: the driver
 * broadcasts w; each executor runs the in-memory kernel ({@link DatasetPasses#lossSum},
 * {@link DatasetPasses#addGradient}, {@link DatasetPasses#addHessianUpper}, each term divided by the
 * global n) on its blocks in row order; partial sums are added in a tree and returned to the driver
 * (the loss sum divided by n there, the Hessian's upper triangle mirrored there). Sums agree with the
 * in-memory ones to rounding (the partial sums are added in another order).
 *
 * <p>{@link #rows} is one job that returns only the requested rows: the sorted distinct ids are
 * broadcast, each block finds its own by binary search among its consecutive ids and copies those rows
 * (no other row is read), and the driver assembles them in id order. Rows fetched per call: the number
 * of distinct ids (counted by {@link Counts#rowsFetched()}). {@link #meanGradientAndRows} does the same inside
 * a gradient pass's {@code treeAggregate} (the rows travel up the tree with the partial sums), so SVRG
 * needs one job per epoch.
 *
 * <p>Nothing here is noisy: the caller's run core releases only noisy functions of these values.
 */
public final class SparkPasses implements DataPasses {
    private final DistributedData data;
    private final LongConsumer onGradientPass;
    private final int depth;
    private long passes;
    private long gradientPasses;
    private long rowsFetched;
    private long fetchJobs;

    /** Passes over data (tree depth 2). */
    public SparkPasses(DistributedData data) {
        this(data, null);
    }

    /**
     * Passes over data that report the number of gradient passes made so far to {@code onGradientPass}
     * after each one (for progress lines; null for none).
     */
    public SparkPasses(DistributedData data, LongConsumer onGradientPass) {
        this.data = Checks.notNull("data", data);
        this.onGradientPass = onGradientPass;
        this.depth = 2;
    }

    @Override
    public long size() {
        return data.rows();
    }

    @Override
    public int dimension() {
        return data.dimension();
    }

    /**
     * What the passes have cost so far (non-private; for tests and benchmarks).
     *
     * @param passes full passes (value, gradient, Hessian) made
     * @param rowsFetched rows returned by {@link #rows} and {@link #meanGradientAndRows} (each distinct id
     *                    of a call counted once)
     * @param fetchJobs jobs that only fetched rows ({@link #rows})
     */
    public record Counts(long passes, long rowsFetched, long fetchJobs) {
    }

    /** The counts so far. */
    public Counts counts() {
        return new Counts(passes, rowsFetched, fetchJobs);
    }

    /** What one pass computes on one block, into acc. */
    @FunctionalInterface
    private interface Kernel extends java.io.Serializable {
        void add(Dataset block, GeneralizedLinearLoss loss, DMatrixRMaj w, double n, double[] acc);
    }

    private double[] aggregate(GeneralizedLinearLoss loss, DMatrixRMaj w, int width, Kernel k) {
        int d = data.dimension();
        Checks.vector("w", w, d);
        LossCodec codec = LossCodec.of(loss);
        double n = data.rows();
        JavaSparkContext jsc = SparkEngine.context(data.session());
        Broadcast<double[]> bw = jsc.broadcast(w.data.clone());
        try {
            passes++;
            return SparkEngine.call(() -> data.blocks().treeAggregate(new double[width], (acc, b) -> {
                k.add(b.dataset(), codec.glm(), DMatrixRMaj.wrap(d, 1, bw.value()), n, acc);
                return acc;
            }, (a, b) -> {
                for (int j = 0; j < a.length; j++) {
                    a[j] += b[j];
                }
                return a;
            }, depth));
        } finally {
            bw.destroy();
        }
    }

    @Override
    public double meanLoss(GeneralizedLinearLoss loss, DMatrixRMaj w) {
        return aggregate(loss, w, 1, (blk, l, wm, n, acc) -> acc[0] += DatasetPasses.lossSum(blk, l, wm))[0]
                / data.rows();
    }

    @Override
    public void meanGradient(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj out) {
        int d = data.dimension();
        Checks.vector("out", out, d);
        double[] g = aggregate(loss, w, d,
                (blk, l, wm, n, acc) -> DatasetPasses.addGradient(blk, l, wm, n, DMatrixRMaj.wrap(d, 1, acc)));
        System.arraycopy(g, 0, out.data, 0, d);
        gradientPass();
    }

    private void gradientPass() {
        gradientPasses++;
        if (onGradientPass != null) {
            onGradientPass.accept(gradientPasses);
        }
    }

    @Override
    public void meanHessian(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj h) {
        int d = data.dimension();
        DatasetPasses.requireSquare(h, d);
        double[] u = aggregate(loss, w, d * d, (blk, l, wm, n, acc) -> DatasetPasses.addHessianUpper(blk, l, wm, n,
                acc));
        DatasetPasses.mirrorUpper(u, d);
        System.arraycopy(u, 0, h.data, 0, d * d);
    }

    /** The rows of one block among the requested ids: their ids, features and labels. */
    private record Fetched(long[] ids, double[] x, double[] y) implements Serializable {
        /** Block b's rows among the sorted distinct ids (binary search; no other row is read). */
        static Fetched of(RowBlock b, long[] wanted) {
            int d = b.d;
            int lo = insertionPoint(wanted, b.firstId);
            int hi = insertionPoint(wanted, b.firstId + b.rows);
            double[] x = new double[(hi - lo) * d];
            double[] y = new double[hi - lo];
            for (int a = lo; a < hi; a++) {
                int r = (int) (wanted[a] - b.firstId);
                b.copyRow(r, x, (a - lo) * d);
                y[a - lo] = b.y[r];
            }
            return new Fetched(Arrays.copyOfRange(wanted, lo, hi), x, y);
        }
    }

    /** A gradient pass's partial result: the partial sum and the requested rows met so far. */
    private static final class Partial implements Serializable {
        private static final long serialVersionUID = 1L;
        final double[] g;
        final ArrayList<Fetched> rows = new ArrayList<>();

        Partial(int d) {
            g = new double[d];
        }

        Partial merge(Partial o) {
            for (int j = 0; j < g.length; j++) {
                g[j] += o.g[j];
            }
            rows.addAll(o.rows);
            return this;
        }
    }

    @Override
    public Rows rows(long[] ids, int count) {
        long[] wanted = distinct(ids, count);
        Broadcast<long[]> bi = SparkEngine.context(data.session()).broadcast(wanted);
        try {
            fetchJobs++;
            return assemble(SparkEngine.call(() -> data.blocks().map(b -> Fetched.of(b, bi.value())).collect()),
                    wanted, ids, count);
        } finally {
            bi.destroy();
        }
    }

    /** One treeAggregate: the partial gradient sums and the blocks' requested rows travel up the same tree. */
    @Override
    public Rows meanGradientAndRows(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj out, long[] ids,
            int count) {
        int d = data.dimension();
        Checks.vector("w", w, d);
        Checks.vector("out", out, d);
        long[] wanted = distinct(ids, count);
        LossCodec codec = LossCodec.of(loss);
        double n = data.rows();
        JavaSparkContext jsc = SparkEngine.context(data.session());
        Broadcast<double[]> bw = jsc.broadcast(w.data.clone());
        Broadcast<long[]> bi = jsc.broadcast(wanted);
        Partial p;
        try {
            passes++;
            p = SparkEngine.call(() -> data.blocks().treeAggregate(new Partial(d), (acc, b) -> {
                DatasetPasses.addGradient(b.dataset(), codec.glm(), DMatrixRMaj.wrap(d, 1, bw.value()), n,
                        DMatrixRMaj.wrap(d, 1, acc.g));
                Fetched f = Fetched.of(b, bi.value());
                if (f.ids().length > 0) {
                    acc.rows.add(f);
                }
                return acc;
            }, Partial::merge, depth));
        } finally {
            bw.destroy();
            bi.destroy();
        }
        System.arraycopy(p.g, 0, out.data, 0, d);
        gradientPass();
        return assemble(p.rows, wanted, ids, count);
    }

    /** The sorted distinct ids among ids[0..count), each checked to lie in [0, n). */
    private long[] distinct(long[] ids, int count) {
        Checks.atLeastOne("count", count);
        long[] v = Arrays.copyOf(ids, count);
        for (long id : v) {
            DataPasses.checkId(id, data.rows());
        }
        return Arrays.stream(v).sorted().distinct().toArray();
    }

    /** The fetched rows in id order, checked complete, with the position of every requested id. */
    private Rows assemble(List<Fetched> parts, long[] wanted, long[] ids, int count) {
        int d = data.dimension();
        int m = wanted.length;
        List<Fetched> sorted = new ArrayList<>(parts);
        sorted.removeIf(f -> f.ids().length == 0);
        sorted.sort((p, q) -> Long.compare(p.ids()[0], q.ids()[0]));
        double[] x = new double[m * d];
        double[] y = new double[m];
        int k = 0;
        for (Fetched f : sorted) {
            for (int a = 0; a < f.ids().length; a++, k++) {
                if (k >= m || f.ids()[a] != wanted[k]) {
                    throw new IllegalStateException("the blocks returned rows other than the requested ones");
                }
                System.arraycopy(f.x(), a * d, x, k * d, d);
                y[k] = f.y()[a];
            }
        }
        if (k != m) {
            throw new IllegalStateException(m - k + " requested rows were not returned");
        }
        rowsFetched += m;
        int[] at = new int[count];
        for (int t = 0; t < count; t++) {
            at[t] = Arrays.binarySearch(wanted, ids[t]);
        }
        return new Rows(Dataset.of(DMatrixRMaj.wrap(m, d, x), y, data.rowNormBound()), at);
    }

    @Override
    public void requireSupNorm(double bound) {
        SparkEngine.call(() -> data.blocks().map(b -> {
            DatasetPasses.requireSupNorm(b.dataset(), bound, b.firstId);
            return 0L;
        }).count());
    }

    /** The number of entries of the sorted, distinct array below v. */
    private static int insertionPoint(long[] sorted, long v) {
        int k = Arrays.binarySearch(sorted, v);
        return k >= 0 ? k : -k - 1;
    }
}
