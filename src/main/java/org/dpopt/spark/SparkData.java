package org.dpopt.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.dpopt.data.DatasetIO;
import org.dpopt.data.DatasetIO.RowNormPolicy;
import org.dpopt.linalg.Checks;
import scala.Tuple2;

/**
 * Reading CSV, LIBSVM and Parquet into {@link DistributedData} on the executors, with the rules of
 * {@link DatasetIO}: non-finite values, wrong widths, bad indices and bad labels are refused with a
 * message naming the file and the line (Parquet: the row), and every row is projected onto (or checked
 * against) the declared ℓ2 ball by the same per-row map. A FILE|DIR argument is one file or a directory
 * of part files (hidden and {@code _}-prefixed names skipped), read in name order; record ids are the
 * data rows' positions in that order, so a single file gets the ids the in-memory reader gives its rows.
 *
 * <p>The dimension d is the declared one (required for LIBSVM; for CSV and column-wise Parquet the
 * schema's width, checked against a declaration if given, as in memory). The number of rows is counted
 * only to check it against a declared size; it is never released.
 */
public final class SparkData {
    private SparkData() {
    }

    /** The formats read. */
    public enum Format {
        /** Numeric columns, label last, optional header. */
        CSV,
        /** {@code label idx:val …} with 1-based indices. */
        LIBSVM,
        /** Numeric columns with the label last, or a numeric array column {@code features} and {@code label}. */
        PARQUET
    }

    /**
     * Reads and validates (one pass; the rows are then cached on the executors).
     *
     * @param dimension the declared d, or null where the format's schema gives it (CSV, Parquet)
     * @throws IllegalArgumentException on bad input, naming the file and line or row
     */
    public static DistributedData read(SparkSession spark, String path, Format format, Integer dimension,
            double rowNormBound, RowNormPolicy policy) {
        return SparkEngine.call(() -> readRows(spark, path, format, dimension, rowNormBound, policy));
    }

    private static DistributedData readRows(SparkSession spark, String path, Format format, Integer dimension,
            double rowNormBound, RowNormPolicy policy) {
        Checks.notNull("format", format);
        Checks.positive("rowNormBound", rowNormBound);
        List<String> files = files(spark, path);
        JavaSparkContext jsc = SparkEngine.context(spark);
        int parts = Math.max(2, jsc.defaultParallelism());
        List<JavaRDD<RowParser.Line>> perFile = new ArrayList<>();
        int d;
        switch (format) {
            case LIBSVM: {
                if (dimension == null) {
                    throw Checks.fail("--dimension", "given for --format libsvm (the number of features is a public "
                            + "declaration, never the largest index in the file)", "absent");
                }
                d = Checks.atLeastOne("--dimension", dimension);
                for (String f : files) {
                    perFile.add(text(jsc, f, parts, new RowParser(true, f, d, rowNormBound, policy)));
                }
                break;
            }
            case CSV: {
                d = csvWidth(jsc, files.get(0)) - 1;
                checkDeclared(dimension, d, files.get(0));
                for (String f : files) {
                    perFile.add(text(jsc, f, parts, new RowParser(false, f, d, rowNormBound, policy)));
                }
                break;
            }
            default: {
                ParquetColumns cols = ParquetColumns.of(spark.read().parquet(files.get(0)).schema(), dimension,
                        files.get(0));
                d = cols.d();
                for (String f : files) {
                    perFile.add(parquet(spark, f, cols, new RowParser(false, f, d, rowNormBound, policy)));
                }
            }
        }
        JavaRDD<RowParser.Line> all = perFile.size() == 1 ? perFile.get(0) : jsc.union(perFile.toArray(JavaRDD[]::new));
        int dd = d;
        JavaRDD<RowBlock> packed = all.zipWithIndex().mapPartitions(it -> pack(it, dd, rowNormBound), true);
        // one task per core per pass: partitions of blocks (a block stays one input split)
        int cores = jsc.defaultParallelism();
        JavaRDD<RowBlock> blocks = (packed.getNumPartitions() > cores ? packed.coalesce(cores) : packed)
                .persist(StorageLevel.MEMORY_AND_DISK());
        long rows = SparkEngine.call(() -> blocks.map(b -> (long) b.rows).fold(0L, Long::sum));
        if (rows == 0) {
            blocks.unpersist(false);
            throw new IllegalArgumentException(path + " must contain at least one data row but was 0");
        }
        return new DistributedData(spark, blocks, d, rowNormBound, rows, path);
    }

    private static void checkDeclared(Integer dimension, int d, String file) {
        if (dimension != null && dimension != d) {
            throw Checks.fail("number of features in " + file, "the declared --dimension " + dimension, d);
        }
    }

    /** One block per partition: records with consecutive ids. */
    private static Iterator<RowBlock> pack(Iterator<Tuple2<RowParser.Line, Long>> it, int d, double bound) {
        List<double[]> rows = new ArrayList<>();
        long first = -1;
        int projected = 0;
        while (it.hasNext()) {
            Tuple2<RowParser.Line, Long> t = it.next();
            if (first < 0) {
                first = t._2();
            }
            rows.add(t._1().values());
            projected += t._1().projected() ? 1 : 0;
        }
        if (rows.isEmpty()) {
            return java.util.Collections.emptyIterator();
        }
        double[] x = new double[rows.size() * d];
        double[] y = new double[rows.size()];
        for (int a = 0; a < rows.size(); a++) {
            System.arraycopy(rows.get(a), 0, x, a * d, d);
            y[a] = rows.get(a)[d];
        }
        return List.of(new RowBlock(first, rows.size(), d, bound, x, y, projected)).iterator();
    }

    /** The files of FILE|DIR, in name order. */
    static List<String> files(SparkSession spark, String path) {
        Checks.notNull("--data", path);
        try {
            Path p = new Path(path);
            FileSystem fs = p.getFileSystem(spark.sparkContext().hadoopConfiguration());
            if (!fs.exists(p)) {
                throw Checks.fail("data file", "an existing file or directory", path);
            }
            List<String> out = new ArrayList<>();
            if (fs.getFileStatus(p).isDirectory()) {
                FileStatus[] st = fs.listStatus(p);
                Arrays.sort(st, (a, b) -> a.getPath().getName().compareTo(b.getPath().getName()));
                for (FileStatus s : st) {
                    String name = s.getPath().getName();
                    if (s.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
                        out.add(s.getPath().toString());
                    }
                }
                if (out.isEmpty()) {
                    throw Checks.fail("data directory " + path, "a directory with at least one data file", "empty");
                }
            } else {
                out.add(p.toString());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    /** The column count of a CSV file's first non-blank line (header or data), as in memory. */
    private static int csvWidth(JavaSparkContext jsc, String file) {
        List<String> first = SparkEngine.call(() -> jsc.textFile(file).filter(l -> !l.strip().isEmpty()).take(1));
        if (first.isEmpty()) {
            throw new IllegalArgumentException(file + " must contain at least one data row but was 0");
        }
        int width = first.get(0).strip().split(",", -1).length;
        if (width < 2) {
            throw new IllegalArgumentException(file + " must have at least 2 columns (features, label) but was "
                    + width);
        }
        return width;
    }

    /** The data lines of a text file with their 1-based line numbers. */
    private static JavaRDD<RowParser.Line> text(JavaSparkContext jsc, String file, int parts, RowParser parser) {
        return jsc.textFile(file, parts).zipWithIndex().mapPartitionsWithIndex((pi, it) -> {
            List<RowParser.Line> out = new ArrayList<>();
            boolean seen = pi != 0; // a header may stand only on the first non-blank line of the file
            while (it.hasNext()) {
                Tuple2<String, Long> t = it.next();
                String s = t._1().strip();
                if (s.isEmpty()) {
                    continue;
                }
                RowParser.Line l = parser.parse(s, t._2() + 1, !seen);
                seen = true;
                if (l != null) {
                    out.add(l);
                }
            }
            return out.iterator();
        }, true);
    }

    private static JavaRDD<RowParser.Line> parquet(SparkSession spark, String file, ParquetColumns cols,
            RowParser parser) {
        ParquetColumns here = ParquetColumns.of(spark.read().parquet(file).schema(), cols.d(), file);
        if (here.featuresArray() != cols.featuresArray() || here.width() != cols.width()) {
            throw Checks.fail("columns of " + file, "those of the first file", here.width());
        }
        JavaRDD<Row> rows = spark.read().parquet(file).javaRDD();
        return rows.zipWithIndex().map(t -> parser.project(here.values(t._1(), file, t._2() + 1),
                file + " row " + (t._2() + 1), t._2() + 1));
    }

    /**
     * How a Parquet schema maps to (features, label).
     *
     * @param featuresArray true if the features are one array column {@code features}
     * @param featuresIndex that column's index (-1 for one numeric column per feature)
     * @param labelIndex the label column's index
     * @param width the number of columns
     * @param d the number of features
     */
    record ParquetColumns(boolean featuresArray, int featuresIndex, int labelIndex, int width, int d)
            implements java.io.Serializable {

        static ParquetColumns of(StructType schema, Integer declared, String file) {
            StructField[] f = schema.fields();
            List<String> names = Arrays.asList(schema.fieldNames());
            int fi = names.indexOf("features");
            int li = names.indexOf("label");
            if (fi >= 0 && li >= 0 && f[fi].dataType() instanceof ArrayType at
                    && at.elementType() instanceof NumericType && f[li].dataType() instanceof NumericType) {
                if (declared == null) {
                    throw Checks.fail("--dimension", "given for Parquet with an array column 'features' (the number "
                            + "of features is a public declaration)", "absent");
                }
                return new ParquetColumns(true, fi, li, f.length, Checks.atLeastOne("--dimension", declared));
            }
            for (StructField c : f) {
                if (!(c.dataType() instanceof NumericType)) {
                    throw Checks.fail("column '" + c.name() + "' of " + file, "numeric (or use columns 'features' "
                            + "array and 'label')", c.dataType().simpleString());
                }
            }
            if (f.length < 2) {
                throw new IllegalArgumentException(file + " must have at least 2 columns (features, label) but was "
                        + f.length);
            }
            checkDeclared(declared, f.length - 1, file);
            return new ParquetColumns(false, -1, f.length - 1, f.length, f.length - 1);
        }

        /** d features then the label of a row. */
        double[] values(Row r, String file, long rowNo) {
            double[] v = new double[d + 1];
            if (featuresArray) {
                if (r.isNullAt(featuresIndex)) {
                    throw new IllegalArgumentException(file + " row " + rowNo + " features must be an array but was null");
                }
                List<Object> xs = r.getList(featuresIndex);
                if (xs.size() != d) {
                    throw new IllegalArgumentException(file + " row " + rowNo + " must have " + d + " features but was "
                            + xs.size());
                }
                for (int j = 0; j < d; j++) {
                    v[j] = finite(xs.get(j), file, rowNo, "feature " + (j + 1));
                }
                v[d] = finite(r.isNullAt(labelIndex) ? null : r.get(labelIndex), file, rowNo, "label");
            } else {
                for (int k = 0; k <= d; k++) {
                    v[k] = finite(r.isNullAt(k) ? null : r.get(k), file, rowNo, "column " + (k + 1));
                }
            }
            return v;
        }

        private static double finite(Object o, String file, long rowNo, String what) {
            double x = o == null ? Double.NaN : ((Number) o).doubleValue();
            if (!Double.isFinite(x)) {
                throw new IllegalArgumentException(file + " row " + rowNo + " " + what + " must be finite but was "
                        + (o == null ? "null" : x));
            }
            return x;
        }
    }
}
