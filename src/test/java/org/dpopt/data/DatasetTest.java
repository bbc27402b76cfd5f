package org.dpopt.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dpopt.linalg.Vectors;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetTest {

    @Test
    void kernelsMatchDefinitions() {
        Dataset d = Dataset.of(new double[][] {{0.6, 0.0, 0.8}, {0.1, 0.2, 0.3}}, new double[] {1, 0}, 1.0);
        DMatrixRMaj w = Vectors.of(1, 2, 3);
        assertEquals(0.6 + 2.4, d.dot(0, w), 1e-15);
        assertEquals(0.1 + 0.4 + 0.9, d.dot(1, w), 1e-15);
        assertEquals(1.0, d.rowNorm(0), 1e-15);
        DMatrixRMaj out = Vectors.of(1, 1, 1);
        d.addScaledRow(1, 2, out);
        assertArrayEquals(new double[] {1.2, 1.4, 1.6}, out.data, 1e-15);
        Dataset s = d.subset(new int[] {1});
        assertEquals(1, s.size());
        assertEquals(0.3, s.feature(0, 2), 0);
        assertTrue(d.isBinary());
    }

    @Test
    void batchDotsAndUpdatesEqualTheOneRowKernelsBitForBit() {
        var rng = Rngs.seeded(31);
        for (int dim : new int[] {1, 3, 4, 7, 100}) {
            Dataset data = Synthetic.logistic(40, Synthetic.plantedVector(dim, 2.0, rng), rng).data();
            DMatrixRMaj w = Synthetic.plantedVector(dim, 3.0, rng);
            for (int count = 0; count <= 11; count++) {
                int[] rows = new int[count + 2];
                for (int k = 0; k < rows.length; k++) {
                    rows[k] = rng.nextInt(40);
                }
                double[] out = new double[count + 1];
                out[count] = 7.0; // beyond count: untouched
                data.dots(rows, count, w.data, 0, out);
                for (int k = 0; k < count; k++) {
                    assertEquals(Double.doubleToRawLongBits(data.dot(rows[k], w)), Double.doubleToRawLongBits(out[k]),
                            "d = " + dim + ", count = " + count + ", slot " + k);
                }
                assertEquals(7.0, out[count]);
            }
            checkRows4(data, rng);
        }
    }

    @Test
    void rangeDotsAndUpdatesEqualTheOneRowKernelsBitForBit() {
        var rng = Rngs.seeded(32);
        for (int dim : new int[] {1, 5, 100}) {
            Dataset data = Synthetic.logistic(23, Synthetic.plantedVector(dim, 2.0, rng), rng).data();
            DMatrixRMaj w = Synthetic.plantedVector(dim, 3.0, rng);
            for (int from = 0; from <= 4; from++) {
                for (int to = from; to <= 23; to += 3) {
                    double[] dots = new double[to - from + 2];
                    dots[0] = 5.0; // before the offset: untouched
                    data.dotsOfRange(from, to, w.data, 0, dots, 1);
                    assertEquals(5.0, dots[0]);
                    double[] a = new double[to - from];
                    double[] expected = new double[dim + 1];
                    for (int i = from; i < to; i++) {
                        assertEquals(Double.doubleToRawLongBits(data.dot(i, w)), Double.doubleToRawLongBits(dots[1 + i - from]));
                        a[i - from] = rng.nextDouble() - 0.5;
                        data.addScaledRow(i, a[i - from], expected, 1);
                    }
                    double[] fused = new double[dim + 1];
                    data.addScaledRange(from, to, a, 0, fused, 1);
                    assertArrayEquals(expected, fused, 0.0, "d = " + dim + ", rows " + from + ".." + to);
                }
            }
        }
    }

    /** addScaledRows4 equals four addScaledRow calls in order, bit for bit (at an offset). */
    private static void checkRows4(Dataset data, org.apache.commons.rng.UniformRandomProvider rng) {
        int dim = data.dimension();
        int[] r = {rng.nextInt(40), rng.nextInt(40), rng.nextInt(40), rng.nextInt(40)};
        double[] a = {rng.nextDouble() - 0.5, -3 * rng.nextDouble(), rng.nextDouble() * 1e-3, 7 * rng.nextDouble()};
        double[] expected = new double[dim + 3];
        for (int j = 0; j < expected.length; j++) {
            expected[j] = rng.nextDouble() - 0.5;
        }
        double[] fused = expected.clone();
        for (int k = 0; k < 4; k++) {
            data.addScaledRow(r[k], a[k], expected, 2);
        }
        data.addScaledRows4(r[0], r[1], r[2], r[3], a[0], a[1], a[2], a[3], fused, 2);
        for (int j = 0; j < expected.length; j++) {
            assertEquals(Double.doubleToRawLongBits(expected[j]), Double.doubleToRawLongBits(fused[j]),
                    "d = " + dim + ", entry " + j);
        }
    }

    @Test
    void generatedRowsEqualTheCopiedOnesAndAreValidated() {
        double[][] rows = {{0.6, 0.0, 0.8}, {0.1, -0.2, 0.3}, {0.0, 0.5, -0.5}};
        double[] y = {1, 0, 1};
        java.util.List<Integer> calls = new java.util.ArrayList<>();
        Dataset g = Dataset.generate(3, 3, 1.0, (i, row) -> {
            calls.add(i);
            System.arraycopy(rows[i], 0, row, 0, 3);
            return y[i];
        });
        Dataset c = Dataset.of(rows, y, 1.0);
        assertEquals(java.util.List.of(0, 1, 2), calls);
        assertArrayEquals(c.features().data, g.features().data, 0);
        assertArrayEquals(c.labels(), g.labels(), 0);
        assertEquals(c.rowNorm(2), g.rowNorm(2), 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Dataset.generate(2, 2, 1.0, (i, row) -> {
                    row[0] = i;
                    row[1] = 0.5;
                    return 1;
                }));
        assertTrue(e.getMessage().startsWith("norm of row 1 must be at most the declared row-norm bound 1.0"),
                e.getMessage());
        assertEquals("number of rows must be at least 1 but was 0",
                assertThrows(IllegalArgumentException.class, () -> Dataset.generate(0, 2, 1.0, (i, row) -> 0))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> Dataset.generate(1 << 16, 1 << 15, 1.0, (i, row) -> 0));
    }

    @Test
    void rejectsNonFiniteFeaturesAndLabels() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Dataset.of(new double[][] {{0.1, Double.NaN}}, new double[] {1}, 1));
        assertEquals("features[0][1] must be finite but was NaN", e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Dataset.of(new double[][] {{0.1, Double.POSITIVE_INFINITY}}, new double[] {1}, 1));
        assertThrows(IllegalArgumentException.class,
                () -> Dataset.of(new double[][] {{0.1, 0.1}}, new double[] {Double.NaN}, 1));
    }

    @Test
    void rejectsWrongShapesAndEmptyData() {
        assertThrows(IllegalArgumentException.class, () -> Dataset.of(new double[][] {{0.1, 0.1}, {0.1}},
                new double[] {1, 1}, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Dataset.of(new double[][] {{0.1, 0.1}}, new double[] {1, 0}, 1));
        assertTrue(e.getMessage().startsWith("labels.length must be equal"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Dataset.of(new double[0][], new double[0], 1));
        assertThrows(IllegalArgumentException.class, () -> Dataset.of(new DMatrixRMaj(0, 3), new double[0], 1));
    }

    @Test
    void rejectsRowsAboveDeclaredBoundAndBadBound() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Dataset.of(new double[][] {{0.9, 0.9}}, new double[] {1}, 1));
        assertTrue(e.getMessage().startsWith("norm of row 0 must be at most the declared row-norm bound"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Dataset.of(new double[][] {{0.1}}, new double[] {1}, 0));
        assertThrows(IllegalArgumentException.class, () -> Dataset.of(new double[][] {{0.1}}, new double[] {1}, Double.NaN));
    }

    @Test
    void inputsAreCopiedNotShared() {
        double[][] x = {{0.1, 0.2}};
        double[] y = {1};
        Dataset d = Dataset.of(x, y, 1);
        x[0][0] = 0.5;
        y[0] = 0;
        assertEquals(0.1, d.feature(0, 0), 0);
        assertEquals(1, d.label(0), 0);
        d.labels()[0] = 7;
        assertEquals(1, d.label(0), 0);
    }

    @Test
    void csvWithAndWithoutHeader() {
        String csv = "a,b,label\n0.1,0.2,1\n\n0.3,0.4,0\n";
        Dataset d = DatasetIO.readCsv(new StringReader(csv), "t", 1, DatasetIO.RowNormPolicy.REJECT).dataset();
        assertEquals(2, d.size());
        assertEquals(2, d.dimension());
        assertEquals(0.4, d.feature(1, 1), 0);
        assertEquals(0, d.label(1), 0);
        Dataset d2 = DatasetIO.readCsv(new StringReader("0.1,0.2,1\n"), "t", 1, DatasetIO.RowNormPolicy.REJECT).dataset();
        assertEquals(1, d2.size());
    }

    @Test
    void csvErrorsNameTheLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DatasetIO.readCsv(
                new StringReader("0.1,0.2,1\n0.1,x,1\n"), "f.csv", 1, DatasetIO.RowNormPolicy.REJECT));
        assertTrue(e.getMessage().startsWith("f.csv line 2 must be numeric"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DatasetIO.readCsv(
                new StringReader("0.1,0.2,1\n0.1,1\n"), "f.csv", 1, DatasetIO.RowNormPolicy.REJECT));
        assertTrue(e.getMessage().contains("must be 3 columns wide but was 2 columns"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DatasetIO.readCsv(
                new StringReader("0.1,NaN,1\n"), "f.csv", 1, DatasetIO.RowNormPolicy.REJECT));
        assertTrue(e.getMessage().contains("must be finite but was NaN"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> DatasetIO.readCsv(
                new StringReader("a,b\n"), "f.csv", 1, DatasetIO.RowNormPolicy.REJECT));
        assertTrue(e.getMessage().contains("at least one data row"), e.getMessage());
    }

    @Test
    void csvRowNormPolicies() {
        String csv = "3,4,1\n0.3,0.4,0\n";
        assertThrows(IllegalArgumentException.class,
                () -> DatasetIO.readCsv(new StringReader(csv), "t", 1, DatasetIO.RowNormPolicy.REJECT));
        DatasetIO.ReadResult r = DatasetIO.readCsv(new StringReader(csv), "t", 1, DatasetIO.RowNormPolicy.PROJECT);
        assertEquals(1, r.projectedRows());
        assertTrue(r.dataset().rowNorm(0) <= 1);
        assertEquals(0.6, r.dataset().feature(0, 0), 1e-9);
        assertEquals(0.3, r.dataset().feature(1, 0), 0); // untouched
    }

    @Test
    void libsvmIsReadIntoDense(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("a.libsvm");
        Files.writeString(f, "+1 1:0.5 3:0.25\n-1 2:0.1\n# comment\n");
        Dataset d = DatasetIO.readLibsvm(f, 3, 1, DatasetIO.RowNormPolicy.REJECT).dataset();
        assertEquals(2, d.size());
        assertEquals(3, d.dimension());
        // the declared dimension, not the largest index present, fixes d
        assertEquals(7, DatasetIO.readLibsvm(f, 7, 1, DatasetIO.RowNormPolicy.REJECT).dataset().dimension());
        assertThrows(IllegalArgumentException.class, () -> DatasetIO.readLibsvm(f, 0, 1, DatasetIO.RowNormPolicy.REJECT));
        assertEquals(0.25, d.feature(0, 2), 0);
        assertEquals(0.0, d.feature(0, 1), 0);
        assertEquals(-1, d.label(1), 0);
        Files.writeString(f, "+1 0:0.5\n");
        assertThrows(IllegalArgumentException.class, () -> DatasetIO.readLibsvm(f, 3, 1, DatasetIO.RowNormPolicy.REJECT));
        Files.writeString(f, "+1 5:0.5\n");
        assertThrows(IllegalArgumentException.class, () -> DatasetIO.readLibsvm(f, 3, 1, DatasetIO.RowNormPolicy.REJECT));
    }

    @Test
    void bundledSplitMatchesTheSharedSplit() {
        Splits.Split s = BundledDatasets.split("breast_cancer");
        assertEquals(455, s.train().size());
        assertEquals(114, s.test().size());
        assertEquals(30, s.train().dimension());
        assertThrows(IllegalArgumentException.class, () -> BundledDatasets.split("adult"));
    }

    @Test
    void randomSplitIsSeededAndDisjoint() {
        Dataset all = Synthetic.logistic(100, Synthetic.plantedVector(3, 1, Rngs.seeded(1)), Rngs.seeded(2)).data();
        Splits.Split a = Splits.random(all, 0.2, Rngs.seeded(5));
        Splits.Split b = Splits.random(all, 0.2, Rngs.seeded(5));
        assertEquals(20, a.test().size());
        assertEquals(80, a.train().size());
        assertArrayEquals(a.test().labels(), b.test().labels());
        assertThrows(IllegalArgumentException.class, () -> Splits.random(all, 1.0, Rngs.seeded(5)));
        assertThrows(IllegalArgumentException.class, () -> Splits.random(all, 0.001, Rngs.seeded(5)));
    }

    @Test
    void syntheticLinearRegressionHasPlantedOptimum() {
        DMatrixRMaj w = Synthetic.plantedVector(5, 1.0, Rngs.seeded(3));
        assertEquals(1.0, Vectors.norm2(w), 1e-12);
        Synthetic.Planted p = Synthetic.linearRegression(20000, w, 0.1, Rngs.seeded(4));
        // least squares on a large sample recovers w* (population optimum) up to O(1/sqrt(n)) error
        Dataset d = p.data();
        DMatrixRMaj xtx = new DMatrixRMaj(5, 5);
        DMatrixRMaj xty = new DMatrixRMaj(5, 1);
        for (int i = 0; i < d.size(); i++) {
            for (int a = 0; a < 5; a++) {
                xty.data[a] += d.feature(i, a) * d.label(i);
                for (int b = 0; b < 5; b++) {
                    xtx.data[a * 5 + b] += d.feature(i, a) * d.feature(i, b);
                }
            }
        }
        DMatrixRMaj sol = new DMatrixRMaj(5, 1);
        org.ejml.dense.row.CommonOps_DDRM.solve(xtx, xty, sol);
        assertTrue(Vectors.distance2(sol, w) < 0.1, "distance " + Vectors.distance2(sol, w));
        for (int i = 0; i < d.size(); i++) {
            assertTrue(d.rowNorm(i) <= 1);
        }
    }
}
