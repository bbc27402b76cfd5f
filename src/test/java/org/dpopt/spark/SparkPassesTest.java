package org.dpopt.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.dpopt.data.Dataset;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.oracle.DatasetPasses;
import org.dpopt.oracle.GllBisectionProx;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distributed full passes (the sums noisy Frank–Wolfe and objective perturbation need) equal the
 * in-memory ones to rounding: value, gradient, Hessian-vector and Hessian sums on n = 3000, d = 6.
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
    void sumsAgreeWithTheInMemoryKernels() {
        DMatrixRMaj w = vec(0.3, -0.2, 0.5, 0.1, -0.4, 0.2);
        DMatrixRMaj v = vec(1, 0, -1, 0.5, 0.25, -0.5);
        DatasetPasses m = new DatasetPasses(memory);
        SparkPasses s = new SparkPasses(spark);
        for (GeneralizedLinearLoss loss : new GeneralizedLinearLoss[] {Losses.logistic(),
                GllBisectionProx.of(Losses.hinge(), 20, 1e-4)}) {
            DMatrixRMaj gm = vec(new double[6]);
            DMatrixRMaj gs = vec(new double[6]);
            m.addGradient(loss, w, 1.0 / 3000, gm);
            s.addGradient(loss, w, 1.0 / 3000, gs);
            close(gm, gs);
            DMatrixRMaj hm = vec(new double[6]);
            DMatrixRMaj hs = vec(new double[6]);
            double vm = m.addValueAndGradient(loss, w, 0.5, hm);
            double vs = s.addValueAndGradient(loss, w, 0.5, hs);
            assertEquals(vm, vs, 1e-12 * Math.abs(vm));
            close(hm, hs);
            DMatrixRMaj km = vec(new double[6]);
            DMatrixRMaj ks = vec(new double[6]);
            m.addHessianVector(loss, w, v, 2.0, km);
            s.addHessianVector(loss, w, v, 2.0, ks);
            close(km, ks);
            DMatrixRMaj fm = new DMatrixRMaj(6, 6);
            DMatrixRMaj fs = new DMatrixRMaj(6, 6);
            m.addHessian(loss, w, 1.0 / 3000, fm);
            s.addHessian(loss, w, 1.0 / 3000, fs);
            close(fm, fs);
            // the full Hessian applied to v is the Hessian-vector sum (scale 2 there, 1/3000 here)
            DMatrixRMaj hv = new DMatrixRMaj(6, 1);
            org.ejml.dense.row.CommonOps_DDRM.mult(fm, v, hv);
            org.ejml.dense.row.CommonOps_DDRM.scale(2 * 3000, hv);
            for (int j = 0; j < 6; j++) {
                assertEquals(km.data[j], hv.data[j], 1e-10 * (1 + Math.abs(km.data[j])), "H v, coordinate " + j);
            }
        }
        assertTrue(s.passes() == 8);
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
