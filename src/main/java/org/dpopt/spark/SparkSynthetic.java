package org.dpopt.spark;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.noise.Rngs;

/**
 * Synthetic logistic data generated where it is used: block p of P holds rows [p·n/P, (p+1)·n/P), drawn
 * from its own seeded generator, so the executors generate the distributed copy (nothing is collected to
 * the driver) and {@link #inMemory} builds the identical in-memory copy for comparisons. Rows: x_j iid
 * uniform on [−1, 1]/√d (so ‖x‖ ≤ 1), y ~ Bernoulli(σ(4⟨w*, x⟩)) in {0, 1}, w* a fixed unit vector.
 */
public final class SparkSynthetic {
    private SparkSynthetic() {
    }

    /** The rows of block p (first id, features, labels), generated straight into the block's dataset. */
    static RowBlock block(long seed, long n, int d, int parts, int p) {
        long lo = n * p / parts;
        int k = (int) (n * (p + 1) / parts - lo);
        if (k == 0) {
            return new RowBlock(lo, 0, d, 1.0, new double[0], new double[0], 0);
        }
        BlockRows g = new BlockRows(seed, d, p);
        return RowBlock.of(lo, Dataset.generate(k, d, 1.0, (i, row) -> g.next(row)), 0);
    }

    /** The generator of one block's rows, in order. */
    private static final class BlockRows {
        private final double[] wStar;
        private final double norm;
        private final UniformRandomProvider r;
        private final double s;

        BlockRows(long seed, int d, int p) {
            wStar = new double[d];
            UniformRandomProvider wr = Rngs.seeded(seed);
            double q = 0;
            for (int j = 0; j < d; j++) {
                wStar[j] = wr.nextDouble() * 2 - 1;
                q += wStar[j] * wStar[j];
            }
            norm = q;
            r = Rngs.seeded(seed * 1_000_003L + p + 1);
            s = 1 / Math.sqrt(d);
        }

        /** The next row's features into row, and its label. */
        double next(double[] row) {
            double u = 0;
            for (int j = 0; j < row.length; j++) {
                double v = (r.nextDouble() * 2 - 1) * s;
                row[j] = v;
                u += v * wStar[j];
            }
            return r.nextDouble() < 1 / (1 + Math.exp(-4 * u / Math.sqrt(norm))) ? 1 : 0;
        }
    }

    /** n rows of dimension d generated on the executors in P blocks, cached. */
    public static DistributedData distributed(SparkSession spark, long n, int d, int parts, long seed) {
        Checks.atLeastOne("n", n);
        Checks.atLeastOne("d", d);
        Checks.atLeastOne("parts", parts);
        List<Integer> ps = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            ps.add(p);
        }
        JavaRDD<RowBlock> blocks = SparkEngine.context(spark).parallelize(ps, parts)
                .map(p -> block(seed, n, d, parts, p)).persist(StorageLevel.MEMORY_AND_DISK());
        long rows = SparkEngine.call(() -> blocks.map(b -> (long) b.rows).fold(0L, Long::sum));
        return new DistributedData(spark, blocks, d, 1.0, rows, "synthetic(n=" + n + ", d=" + d + ")");
    }

    /**
     * The same rows in memory, generated block after block straight into the dataset's own storage (no
     * n×d temporary: the process holds one copy, 8·n·d bytes).
     */
    public static Dataset inMemory(long n, int d, int parts, long seed) {
        Checks.atLeastOne("parts", parts);
        int rows = Math.toIntExact(n);
        BlockRows[] g = new BlockRows[1];
        int[] block = {-1};
        long[] end = {0};
        return Dataset.generate(rows, d, 1.0, (i, row) -> {
            while (i >= end[0]) {
                block[0]++;
                end[0] = n * (block[0] + 1) / parts;
                g[0] = new BlockRows(seed, d, block[0]);
            }
            return g[0].next(row);
        });
    }
}
