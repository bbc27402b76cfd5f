package org.dpopt.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.dpopt.data.Splits;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.loss.ProblemShape;
import org.dpopt.models.Model;
import org.dpopt.optim.check.ClassCounts;
import org.ejml.data.DMatrixRMaj;

/**
 * A labelled dataset held by Spark executors: validated rows, projected onto the declared ℓ2 ball, each
 * with a record id in [0, rows) (its position in the input), cached in blocks of consecutive ids. The
 * private input of a distributed run: nothing here is released; {@link #rows()} is the actual count,
 * used only to check declarations.
 */
public final class DistributedData {
    private final SparkSession spark;
    private final JavaRDD<RowBlock> blocks;
    private final int d;
    private final double bound;
    private final long rows;
    private final String source;
    private final double interceptScale;

    DistributedData(SparkSession spark, JavaRDD<RowBlock> blocks, int d, double bound, long rows, String source) {
        this(spark, blocks, d, bound, rows, source, 0);
    }

    private DistributedData(SparkSession spark, JavaRDD<RowBlock> blocks, int d, double bound, long rows,
            String source, double interceptScale) {
        this.spark = spark;
        this.blocks = blocks;
        this.d = d;
        this.bound = bound;
        this.rows = rows;
        this.source = source;
        this.interceptScale = interceptScale;
    }

    /**
     * The rows (x, c) on the executors, as {@link org.dpopt.data.Dataset#withConstantColumn} builds them in
     * memory: d + 1 columns, the last the public constant c, and the declared bound
     * {@link org.dpopt.data.Dataset#augmentedBound}(R, c). The new rows are cached and these released.
     *
     * @param c the intercept's constant, c &gt; 0 and finite
     * @throws IllegalArgumentException if these rows already have the column
     */
    public DistributedData withConstantColumn(double c) {
        Checks.positive("intercept scale", c);
        Checks.finite("intercept scale", c);
        if (hasIntercept()) {
            throw Checks.fail("intercept", "added once", "already on with scale " + interceptScale);
        }
        double b = org.dpopt.data.Dataset.augmentedBound(bound, c);
        int d1 = d + 1;
        JavaRDD<RowBlock> out = blocks.map(k -> {
            double[] xs = new double[k.rows * d1];
            for (int a = 0; a < k.rows; a++) {
                k.copyRow(a, xs, a * d1);
                xs[a * d1 + k.d] = c;
            }
            return new RowBlock(k.firstId, k.rows, d1, b, xs, k.y, k.projected);
        }).persist(StorageLevel.MEMORY_AND_DISK());
        SparkEngine.call(out::count);
        blocks.unpersist(false);
        return new DistributedData(spark, out, d1, b, rows, source, c);
    }

    /** True if the last column is an intercept's constant. */
    public boolean hasIntercept() {
        return interceptScale > 0;
    }

    /** The intercept's constant c, or 0 without one. */
    public double interceptScale() {
        return interceptScale;
    }

    /** The session. */
    public SparkSession session() {
        return spark;
    }

    JavaRDD<RowBlock> blocks() {
        return blocks;
    }

    /** d: the number of columns (the features, plus one with an intercept). */
    public int dimension() {
        return d;
    }

    /** The declared row-norm bound R (with an intercept, the augmented bound √(R² + c²)). */
    public double rowNormBound() {
        return bound;
    }

    /** The actual number of rows (private: for checking declarations, never released). */
    public long rows() {
        return rows;
    }

    /** Where the rows came from. */
    public String source() {
        return source;
    }

    /**
     * The public shape a plan is made from: the declared size n if one is given (0: none, then the actual
     * count is used and, as in memory, reported as treated public), d, R, loss and domain.
     */
    public ProblemShape shape(Loss loss, ConvexSet domain, int declaredSize) {
        if (declaredSize < 0) {
            throw Checks.fail("declaredSize", "positive (or 0 for none)", declaredSize);
        }
        boolean declared = declaredSize > 0;
        return new ProblemShape(declared ? declaredSize : Math.toIntExact(rows), d, bound, loss, domain, declared,
                interceptScale);
    }

    /** The number of rows projected onto the ball (non-private diagnostic). */
    public long projectedRows() {
        return SparkEngine.call(() -> blocks.map(b -> (long) b.projected).fold(0L, Long::sum));
    }

    /** The rows as a Spark SQL dataset of (id, features array, label). */
    public Dataset<Row> toDataFrame() {
        StructType schema = new StructType()
                .add("id", DataTypes.LongType, false)
                .add("features", DataTypes.createArrayType(DataTypes.DoubleType, false), false)
                .add("label", DataTypes.DoubleType, false);
        JavaRDD<Row> r = blocks.flatMap(b -> {
            List<Row> out = new ArrayList<>(b.rows);
            for (int a = 0; a < b.rows; a++) {
                Double[] x = new Double[b.d];
                double[] xa = b.row(a);
                for (int j = 0; j < b.d; j++) {
                    x[j] = xa[j];
                }
                out.add(RowFactory.create(b.firstId + a, x, b.y[a]));
            }
            return out.iterator();
        });
        return spark.createDataFrame(r, schema);
    }

    /**
     * Collects the rows to the driver as an in-memory dataset, in id order (tests and small data only).
     */
    public org.dpopt.data.Dataset collect() {
        List<RowBlock> all = new ArrayList<>(blocks.collect());
        all.sort((a, b) -> Long.compare(a.firstId, b.firstId));
        double[][] x = new double[Math.toIntExact(rows)][];
        double[] y = new double[x.length];
        for (RowBlock b : all) {
            for (int a = 0; a < b.rows; a++) {
                x[(int) (b.firstId + a)] = b.row(a);
                y[(int) (b.firstId + a)] = b.y[a];
            }
        }
        return org.dpopt.data.Dataset.of(x, y, bound);
    }

    /** Train and test parts. */
    public record Split(DistributedData train, DistributedData test) {
    }

    /**
     * The split {@link Splits#random} makes of the same rows in memory: the test rows are
     * {@link Splits#randomTestRows}(rows, f, rng) (drawn on the driver from the public split seed's
     * generator; O(rows) driver memory), train rows keep their order and are renumbered 0, 1, … as the
     * in-memory subset is.
     */
    public Split split(double testFraction, UniformRandomProvider rng) {
        int[] test = Splits.randomTestRows(Math.toIntExact(rows), testFraction, rng);
        Broadcast<int[]> bt = SparkEngine.context(spark).broadcast(test);
        JavaRDD<RowBlock[]> parts = blocks.map(b -> divide(b, bt.value()));
        JavaRDD<RowBlock> train = parts.filter(p -> p[0] != null).map(p -> p[0]).persist(StorageLevel.MEMORY_AND_DISK());
        JavaRDD<RowBlock> held = parts.filter(p -> p[1] != null).map(p -> p[1]).persist(StorageLevel.MEMORY_AND_DISK());
        long nTest = test.length;
        SparkEngine.call(() -> train.count() + held.count());
        return new Split(new DistributedData(spark, train, d, bound, rows - nTest, source, interceptScale),
                new DistributedData(spark, held, d, bound, nTest, source + " (test split)", interceptScale));
    }

    /** A block's train rows and test rows, renumbered: a row's new id counts the earlier rows of its part. */
    private static RowBlock[] divide(RowBlock b, int[] test) {
        int lo = insertionPoint(test, b.firstId);
        int hi = insertionPoint(test, b.firstId + b.rows);
        int nt = hi - lo;
        int nr = b.rows - nt;
        double[] xr = new double[nr * b.d];
        double[] yr = new double[nr];
        double[] xt = new double[nt * b.d];
        double[] yt = new double[nt];
        int r = 0;
        int t = 0;
        for (int a = 0; a < b.rows; a++) {
            boolean isTest = t < nt && test[lo + t] == b.firstId + a;
            if (isTest) {
                b.copyRow(a, xt, t * b.d);
                yt[t++] = b.y[a];
            } else {
                b.copyRow(a, xr, r * b.d);
                yr[r++] = b.y[a];
            }
        }
        RowBlock train = nr == 0 ? null : new RowBlock(b.firstId - lo, nr, b.d, b.bound, xr, yr, 0);
        RowBlock held = nt == 0 ? null : new RowBlock(lo, nt, b.d, b.bound, xt, yt, 0);
        return new RowBlock[] {train, held};
    }

    /** The number of entries of the sorted array below v. */
    private static int insertionPoint(int[] sorted, long v) {
        int k = Arrays.binarySearch(sorted, (int) Math.min(Integer.MAX_VALUE, v));
        return k >= 0 ? k : -k - 1;
    }

    /**
     * The distinct labels with their first record ids (input validation on the driver; never released).
     *
     * @param cap the most distinct values kept (more: {@link LabelSummary#overflow()})
     */
    public LabelSummary labels(int cap) {
        Checks.atLeastOne("cap", cap);
        LabelSummary.Partial p = SparkEngine.call(() -> blocks.treeAggregate(new LabelSummary.Partial(cap),
                LabelSummary.Partial::add, LabelSummary.Partial::merge, 2));
        return p.summary(rows);
    }

    /**
     * The number of rows a model file classifies correctly, by {@link Model#accuracy} on each block (the
     * model rebuilt from its JSON text where the rows are; the rows are the original features).
     */
    public long correct(String modelJson) {
        Checks.notNull("modelJson", modelJson);
        return SparkEngine.call(() -> blocks.map(b -> Math.round(Model.fromJson(modelJson).accuracy(b.dataset())
                * b.rows)).fold(0L, Long::sum));
    }

    /**
     * The constant check's counting queries on these rows (as held: with the intercept's column if one
     * was added), each a job over the blocks; only their noisy arg-max is ever released.
     */
    public ClassCounts classCounts() {
        return new ClassCounts() {
            @Override
            public long rows() {
                return rows;
            }

            @Override
            public long positives() {
                return SparkEngine.call(() -> blocks.map(b -> ClassCounts.of(b.dataset()).positives())
                        .fold(0L, Long::sum));
            }

            @Override
            public long correct(DMatrixRMaj w) {
                double[] ws = w.data.clone();
                return SparkEngine.call(() -> blocks.map(b -> ClassCounts.of(b.dataset())
                        .correct(DMatrixRMaj.wrap(ws.length, 1, ws))).fold(0L, Long::sum));
            }
        };
    }

    /**
     * How many rows carry each label, counted on the executors (for held-out metrics such as the
     * majority-class rate of test rows; never part of a private release).
     */
    public java.util.Map<Double, Long> labelCounts() {
        return SparkEngine.call(() -> blocks.map(DistributedData::countLabels)
                .fold(new java.util.HashMap<>(), DistributedData::mergeCounts));
    }

    private static java.util.HashMap<Double, Long> countLabels(RowBlock b) {
        java.util.HashMap<Double, Long> m = new java.util.HashMap<>();
        org.dpopt.data.Dataset d = b.dataset();
        for (int i = 0; i < d.size(); i++) {
            m.merge(d.label(i), 1L, Long::sum);
        }
        return m;
    }

    private static java.util.HashMap<Double, Long> mergeCounts(java.util.HashMap<Double, Long> a,
            java.util.HashMap<Double, Long> b) {
        java.util.HashMap<Double, Long> m = new java.util.HashMap<>(a);
        b.forEach((k, v) -> m.merge(k, v, Long::sum));
        return m;
    }

    /** Releases the cached rows. */
    public void unpersist() {
        blocks.unpersist(false);
    }
}
