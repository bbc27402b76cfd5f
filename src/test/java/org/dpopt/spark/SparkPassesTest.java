package org.dpopt.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.dpopt.data.Dataset;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.oracle.DataPasses;
import org.dpopt.oracle.DatasetPasses;
import org.dpopt.oracle.GllBisectionProx;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distributed full passes (the means noisy Frank–Wolfe and objective perturbation need) equal the
 * in-memory ones to rounding: loss, gradient and Hessian on n = 3000, d = 6; the rows fetched by id are
 * the in-memory rows bit for bit, and only those are returned.
 */
class SparkPassesTest {

    @TempDir
    static Path dir;
    static Dataset memory;
    static DistributedData spark;

    @BeforeAll
    static void read() throws Exception {
        SparkTests.Both both = SparkTests.logistic(dir, 3000, 6, 4);
        memory = both.memory();
        spark = both.spark();
    }

    private static DMatrixRMaj vec(double... v) {
        return DMatrixRMaj.wrap(v.length, 1, v);
    }

    private static void close(DMatrixRMaj a, DMatrixRMaj b) {
        for (int j = 0; j < a.getNumElements(); j++) {
            assertEquals(a.data[j], b.data[j], 1e-12 * (1 + Math.abs(a.data[j])), "coordinate " + j);
        }
    }

    @Test
    void meansAgreeWithTheInMemoryKernels() {
        DMatrixRMaj w = vec(0.3, -0.2, 0.5, 0.1, -0.4, 0.2);
        DatasetPasses m = new DatasetPasses(memory);
        SparkPasses s = new SparkPasses(spark);
        assertEquals(3000, s.size());
        for (GeneralizedLinearLoss loss : new GeneralizedLinearLoss[] {Losses.logistic(),
                GllBisectionProx.of(Losses.hinge(), 20, 1e-4)}) {
            double vm = m.meanLoss(loss, w);
            assertEquals(vm, s.meanLoss(loss, w), 1e-12 * Math.abs(vm));
            DMatrixRMaj gm = vec(new double[6]);
            DMatrixRMaj gs = vec(7, 7, 7, 7, 7, 7); // overwritten, not added to
            m.meanGradient(loss, w, gm);
            s.meanGradient(loss, w, gs);
            close(gm, gs);
            DMatrixRMaj fm = new DMatrixRMaj(6, 6);
            DMatrixRMaj fs = new DMatrixRMaj(6, 6);
            fs.fill(7);
            m.meanHessian(loss, w, fm);
            s.meanHessian(loss, w, fs);
            close(fm, fs);
            for (int a = 0; a < 6; a++) {
                for (int b = 0; b < a; b++) {
                    assertEquals(fs.get(b, a), fs.get(a, b), 0.0, "symmetric to the bit");
                }
            }
        }
        // the in-memory kernels against the independent empirical risk and full gradient of Problem
        Problem p = Problem.of(memory, Losses.logistic());
        assertEquals(p.empiricalRisk(w), m.meanLoss(Losses.logistic(), w), 1e-15);
        DMatrixRMaj g = new DMatrixRMaj(6, 1);
        p.fullGradient(w, g);
        DMatrixRMaj gm = new DMatrixRMaj(6, 1);
        m.meanGradient(Losses.logistic(), w, gm);
        close(g, gm);
        assertEquals(6, s.counts().passes());
    }

    @Test
    void rowsAreFetchedBitForBitOnlyThoseAskedFor() {
        SparkPasses s = new SparkPasses(spark);
        long[] ids = {2999, 5, 17, 5, 0, 1500, 17, 2999, 42};
        DataPasses.Rows r = s.rows(ids, 8); // the last id is not asked for
        assertEquals(5, r.data().size(), "distinct rows among the first 8 ids");
        assertEquals(5, s.counts().rowsFetched());
        DMatrixRMaj row = new DMatrixRMaj(6, 1);
        DMatrixRMaj want = new DMatrixRMaj(6, 1);
        for (int t = 0; t < 8; t++) {
            r.data().row(r.position()[t], row);
            memory.row((int) ids[t], want);
            assertArrayEquals(want.data, row.data, 0.0, "row " + ids[t]);
            assertEquals(memory.label((int) ids[t]), r.data().label(r.position()[t]), 0.0);
        }
        DataPasses.Rows inMemory = new DatasetPasses(memory).rows(ids, 8);
        assertSame(memory, inMemory.data(), "in memory: the dataset itself");
        assertArrayEquals(new int[] {2999, 5, 17, 5, 0, 1500, 17, 2999}, inMemory.position());
        for (DataPasses passes : new DataPasses[] {s, new DatasetPasses(memory)}) {
            String e = assertThrows(IllegalArgumentException.class, () -> passes.rows(new long[] {3, 3000}, 2))
                    .getMessage();
            assertTrue(e.contains("row id must be in [0, 3000) but was 3000"), e);
        }
    }

    @Test
    void supNormCheckAndLossRecipes() {
        new SparkPasses(spark).requireSupNorm(1.0);
        String m = assertThrows(IllegalArgumentException.class, () -> new SparkPasses(spark).requireSupNorm(1e-6))
                .getMessage();
        assertTrue(m.contains("must be at most the declared sup-norm bound 1.0E-6"), m);
        assertThrows(IllegalArgumentException.class, () -> LossCodec.of(Losses.huber(0.123)));
    }
}
