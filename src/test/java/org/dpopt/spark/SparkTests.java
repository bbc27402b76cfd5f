package org.dpopt.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.dpopt.data.Dataset;
import org.dpopt.data.DatasetIO;
import org.dpopt.data.Synthetic;
import org.dpopt.noise.Rngs;

/**
 * The one local Spark session all Spark test classes share (local[2], started on first use, stopped when
 * the test JVM exits), and small helpers.
 */
final class SparkTests {
    private SparkTests() {
    }

    private static SparkSession session;

    /** The shared local[2] session. */
    static synchronized SparkSession spark() {
        if (session == null) {
            session = SparkEngine.session("local[2]");
        }
        return session;
    }

    /** The same synthetic logistic rows read by both engines from one CSV file. */
    record Both(Dataset memory, DistributedData spark) {
    }

    /** n planted-logistic rows of dimension d (seeds s, s+1) written to dir and read by both readers. */
    static Both logistic(Path dir, int n, int d, long s) throws IOException {
        Dataset raw = Synthetic.logistic(n, Synthetic.plantedVector(d, 3, Rngs.seeded(s)), Rngs.seeded(s + 1)).data();
        Path csv = writeCsv(dir, "rows.csv", raw);
        Dataset memory = DatasetIO.readCsv(csv, 1.0, DatasetIO.RowNormPolicy.PROJECT).dataset();
        DistributedData spark = SparkData.read(spark(), csv.toString(), SparkData.Format.CSV, null, 1.0,
                DatasetIO.RowNormPolicy.PROJECT);
        return new Both(memory, spark);
    }

    /** Writes a dataset as CSV with a header (label last), full precision. */
    static Path writeCsv(Path dir, String name, Dataset data) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < data.dimension(); j++) {
            sb.append('x').append(j).append(',');
        }
        sb.append("label\n");
        for (int i = 0; i < data.size(); i++) {
            for (int j = 0; j < data.dimension(); j++) {
                sb.append(data.feature(i, j)).append(',');
            }
            sb.append(data.label(i)).append('\n');
        }
        Path p = dir.resolve(name);
        Files.writeString(p, sb.toString());
        return p;
    }
}
