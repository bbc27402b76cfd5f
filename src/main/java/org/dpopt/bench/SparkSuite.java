package org.dpopt.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import org.dpopt.linalg.Checks;

/**
 * {@code dpopt bench --suite spark}, registered without loading Spark: the suite itself
 * ({@code org.dpopt.spark.SparkBenchSuite}) is loaded only when run, after Spark was found on the class
 * path ({@code ./dpopt} adds it for this suite).
 */
final class SparkSuite implements BenchSuite {

    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception {
        BenchSuite s;
        try {
            Class.forName("org.apache.spark.sql.SparkSession", false, SparkSuite.class.getClassLoader());
            s = (BenchSuite) Class.forName("org.dpopt.spark.SparkBenchSuite").getDeclaredConstructor().newInstance();
        } catch (ClassNotFoundException | LinkageError e) {
            throw Checks.fail("--suite spark", "run with Apache Spark on the class path (./dpopt adds it)",
                    "no Spark classes found");
        }
        return s.run(out, quick, progress);
    }
}
