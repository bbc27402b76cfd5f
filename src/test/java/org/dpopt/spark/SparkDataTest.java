package org.dpopt.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.dpopt.data.Dataset;
import org.dpopt.data.DatasetIO;
import org.dpopt.data.DatasetIO.RowNormPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The distributed readers apply the in-memory readers' rules, with errors naming the file and the line. */
class SparkDataTest {

    @TempDir
    Path dir;

    private DistributedData read(Path p, SparkData.Format f, Integer d, RowNormPolicy policy) {
        return SparkData.read(SparkTests.spark(), p.toString(), f, d, 1.0, policy);
    }

    private String refusal(Path p, SparkData.Format f, Integer d, RowNormPolicy policy) {
        return assertThrows(IllegalArgumentException.class, () -> read(p, f, d, policy)).getMessage();
    }

    private Path file(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void csvRowsAndProjectionAreTheInMemoryOnesBitForBit() throws Exception {
        Path p = file("a.csv", "f1,f2,label\n\n0.3,0.4,1\n3,4,0\n-0.1,0.0,-1\n0.6,0.8,1\n");
        Dataset mem = DatasetIO.readCsv(p, 1.0, RowNormPolicy.PROJECT).dataset();
        DistributedData d = read(p, SparkData.Format.CSV, null, RowNormPolicy.PROJECT);
        assertEquals(4, d.rows());
        assertEquals(2, d.dimension());
        assertArrayEquals(mem.features().data, d.collect().features().data);
        assertArrayEquals(mem.labels(), d.collect().labels());
        assertEquals(1, d.projectedRows());
        assertEquals(4, d.toDataFrame().count());
    }

    @Test
    void csvRefusalsNameFileAndLine() throws Exception {
        Path nan = file("nan.csv", "x,y,label\n0.1,0.2,1\n0.3,NaN,0\n");
        assertEquals(nan + " line 3 column 2 must be finite but was NaN",
                refusal(nan, SparkData.Format.CSV, null, RowNormPolicy.PROJECT));
        Path width = file("w.csv", "0.1,0.2,1\n0.1,0.2,0\n0.3,1\n");
        assertEquals(width + " line 3 must have 3 columns but was 2",
                refusal(width, SparkData.Format.CSV, null, RowNormPolicy.PROJECT));
        Path text = file("t.csv", "x,y,label\n0.1,0.2,1\nx,y,label\n");
        assertEquals(text + " line 3 must be numeric but was 'x,y,label'",
                refusal(text, SparkData.Format.CSV, null, RowNormPolicy.PROJECT));
        Path inf = file("inf.csv", "0.1,0.2,Infinity\n");
        assertEquals(inf + " line 1 column 3 must be finite but was Infinity",
                refusal(inf, SparkData.Format.CSV, null, RowNormPolicy.PROJECT));
        Path longRow = file("long.csv", "0.1,0.2,1\n3,4,0\n");
        assertEquals("norm of " + longRow + " line 2 must be at most the declared row-norm bound 1.0 but was 5.0",
                refusal(longRow, SparkData.Format.CSV, null, RowNormPolicy.REJECT));
        Path empty = file("empty.csv", "\n\n");
        assertTrue(refusal(empty, SparkData.Format.CSV, null, RowNormPolicy.PROJECT)
                .contains("must contain at least one data row but was 0"));
        assertTrue(refusal(nan, SparkData.Format.CSV, 5, RowNormPolicy.PROJECT)
                .contains("must be the declared --dimension 5 but was 2"));
        assertTrue(refusal(dir.resolve("missing.csv"), SparkData.Format.CSV, null, RowNormPolicy.PROJECT)
                .contains("must be an existing file or directory"));
    }

    @Test
    void aDirectoryOfPartFilesIsReadInNameOrderWithOneHeaderEach() throws Exception {
        Path parts = dir.resolve("parts");
        Files.createDirectories(parts);
        Files.writeString(parts.resolve("part-00001.csv"), "a,b,label\n0.5,0.5,0\n");
        Files.writeString(parts.resolve("part-00000.csv"), "a,b,label\n0.1,0.1,1\n0.2,0.2,1\n");
        Files.writeString(parts.resolve("_SUCCESS"), "");
        Files.writeString(parts.resolve(".part-00000.csv.crc"), "junk");
        Dataset d = read(parts, SparkData.Format.CSV, null, RowNormPolicy.PROJECT).collect();
        assertArrayEquals(new double[] {0.1, 0.1, 0.2, 0.2, 0.5, 0.5}, d.features().data);
        assertArrayEquals(new double[] {1, 1, 0}, d.labels());
    }

    @Test
    void libsvmMatchesTheInMemoryReaderAndRefusesIndicesAboveTheDeclaredDimension() throws Exception {
        Path p = file("a.svm", "# comment\n1 1:0.5 3:0.25\n\n-1 2:0.75\n0 1:3 2:4\n");
        Dataset mem = DatasetIO.readLibsvm(p, 3, 1.0, RowNormPolicy.PROJECT).dataset();
        Dataset got = read(p, SparkData.Format.LIBSVM, 3, RowNormPolicy.PROJECT).collect();
        assertArrayEquals(mem.features().data, got.features().data);
        assertArrayEquals(mem.labels(), got.labels());
        Path big = file("big.svm", "1 1:0.5\n1 5:0.1\n");
        assertEquals(big + " line 2 feature index must be at most dimension 3 but was 5",
                refusal(big, SparkData.Format.LIBSVM, 3, RowNormPolicy.PROJECT));
        assertTrue(refusal(p, SparkData.Format.LIBSVM, null, RowNormPolicy.PROJECT).startsWith("--dimension must be"));
        Path bad = file("bad.svm", "1 1:0.5\n1 2-0.1\n");
        assertEquals(bad + " line 2 must be 'label index:value ...' but was '1 2-0.1'",
                refusal(bad, SparkData.Format.LIBSVM, 3, RowNormPolicy.PROJECT));
        Path nan = file("nan.svm", "1 1:NaN\n");
        assertEquals(nan + " line 1 values must be finite but was NaN",
                refusal(nan, SparkData.Format.LIBSVM, 3, RowNormPolicy.PROJECT));
    }

    @Test
    void parquetColumnsAndFeatureArraysWithTheSameRules() {
        StructType cols = new StructType().add("a", DataTypes.DoubleType).add("b", DataTypes.FloatType)
                .add("label", DataTypes.IntegerType);
        List<Row> rows = new ArrayList<>();
        rows.add(RowFactory.create(0.25, 0.5f, 1));
        rows.add(RowFactory.create(3.0, 4.0f, 0));
        Path p = dir.resolve("cols.parquet");
        SparkTests.spark().createDataFrame(rows, cols).coalesce(1).write().parquet(p.toString());
        Dataset d = read(p, SparkData.Format.PARQUET, null, RowNormPolicy.PROJECT).collect();
        assertEquals(2, d.dimension());
        assertArrayEquals(new double[] {1, 0}, d.labels());
        assertEquals(0.25, d.feature(0, 0));
        assertTrue(d.rowNorm(1) <= 1.0 && d.rowNorm(1) > 0.999, "projected row");

        StructType arr = new StructType().add("features", DataTypes.createArrayType(DataTypes.DoubleType))
                .add("label", DataTypes.DoubleType);
        List<Row> boxed = new ArrayList<>();
        boxed.add(RowFactory.create(new Object[] {0.1, 0.2, 0.3}, 1.0));
        boxed.add(RowFactory.create(new Object[] {0.1, null, 0.3}, 0.0));
        Path q = dir.resolve("arr.parquet");
        SparkTests.spark().createDataFrame(boxed, arr).coalesce(1).write().parquet(q.toString());
        String m = refusal(q, SparkData.Format.PARQUET, 3, RowNormPolicy.PROJECT);
        assertTrue(m.endsWith(" row 2 feature 2 must be finite but was null"), m);
        assertTrue(refusal(q, SparkData.Format.PARQUET, null, RowNormPolicy.PROJECT).startsWith("--dimension must be"));
        assertTrue(refusal(q, SparkData.Format.PARQUET, 4, RowNormPolicy.PROJECT).contains("must have 4 features but was 3"));
    }

    @Test
    void interceptColumnAndShapeAreTheInMemoryOnes() throws Exception {
        Path p = file("c.csv", "f1,f2,label\n0.3,0.4,1\n3,4,0\n-0.1,0.0,1\n0.6,0.8,0\n");
        Dataset mem = DatasetIO.readCsv(p, 1.0, RowNormPolicy.PROJECT).dataset();
        org.dpopt.loss.Problem problem = org.dpopt.loss.Problem.of(mem, org.dpopt.loss.Losses.logistic())
                .withIntercept(0.5);
        DistributedData d = read(p, SparkData.Format.CSV, null, RowNormPolicy.PROJECT).withConstantColumn(0.5);
        Dataset back = d.collect();
        assertArrayEquals(problem.data().features().data, back.features().data);
        assertEquals(problem.data().rowNormBound(), back.rowNormBound(), 0.0);
        assertEquals(problem.shape(), d.shape(problem.loss(), problem.domain(), 0));
        assertEquals(1, d.projectedRows());
        assertThrows(IllegalArgumentException.class, () -> d.withConstantColumn(0.5));
        d.unpersist();
    }

    @Test
    void labelSummaryListsFirstAppearancesOrCapsOut() throws Exception {
        Path p = file("l.csv", "f1,label\n0.1,2\n0.2,0\n0.3,2\n0.4,-1\n0.5,0\n");
        DistributedData d = read(p, SparkData.Format.CSV, null, RowNormPolicy.PROJECT);
        LabelSummary s = d.labels(10);
        assertArrayEquals(new double[] {2, 0, -1}, s.values());
        assertArrayEquals(new long[] {0, 1, 3}, s.firstIds());
        assertEquals(5, s.rows());
        assertTrue(d.labels(2).overflow());
        assertEquals(0, d.labels(2).values().length);
    }
}
