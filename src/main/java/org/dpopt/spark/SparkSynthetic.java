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
import org.ejml.data.DMatrixRMaj;

/**
 * Synthetic logistic data generated where it is used: block p of P holds rows [p·n/P, (p+1)·n/P), drawn
 * from its own seeded generator, so the executors generate the distributed copy (nothing is collected to
 * the driver) and {@link #inMemory} builds the identical in-memory copy for comparisons. Rows: x_j iid
 * uniform on [−1, 1]/√d (so ‖x‖ ≤ 1), y ~ Bernoulli(σ(4⟨w*, x⟩)) in {0, 1}, w* a fixed unit vector.
 */
public final class SparkSynthetic {
    private SparkSynthetic() {
    }

    /** The rows of block p (first id, x row-major, y). */
    static RowBlock block(long seed, long n, int d, int parts, int p) {
        long lo = n * p / parts;
        long hi = n * (p + 1) / parts;
        int k = (int) (hi - lo);
        double[] wStar = new double[d];
        UniformRandomProvider wr = Rngs.seeded(seed);
        double norm = 0;
        for (int j = 0; j < d; j++) {
            wStar[j] = wr.nextDouble() * 2 - 1;
            norm += wStar[j] * wStar[j];
        }
        UniformRandomProvider r = Rngs.seeded(seed * 1_000_003L + p + 1);
        double s = 1 / Math.sqrt(d);
        double[] x = new double[k * d];
        double[] y = new double[k];
        for (int a = 0; a < k; a++) {
            double u = 0;
            for (int j = 0; j < d; j++) {
                double v = (r.nextDouble() * 2 - 1) * s;
                x[a * d + j] = v;
                u += v * wStar[j];
            }
            y[a] = r.nextDouble() < 1 / (1 + Math.exp(-4 * u / Math.sqrt(norm))) ? 1 : 0;
        }
        return new RowBlock(lo, k, d, 1.0, x, y, 0);
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

    /** The same rows in memory. */
    public static Dataset inMemory(long n, int d, int parts, long seed) {
        DMatrixRMaj x = new DMatrixRMaj(Math.toIntExact(n), d);
        double[] y = new double[x.numRows];
        for (int p = 0; p < parts; p++) {
            RowBlock b = block(seed, n, d, parts, p);
            System.arraycopy(b.x, 0, x.data, (int) b.firstId * d, b.rows * d);
            System.arraycopy(b.y, 0, y, (int) b.firstId, b.rows);
        }
        return Dataset.of(x, y, 1.0);
    }
}
