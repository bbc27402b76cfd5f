package org.dpopt.spark;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.oracle.DataPasses;
import org.dpopt.oracle.DatasetPasses;
import org.ejml.data.DMatrixRMaj;

/**
 * {@link DataPasses} over {@link DistributedData}: one {@code treeAggregate} per call. The driver
 * broadcasts w (and v); each executor runs the in-memory kernel ({@link DatasetPasses}) on its blocks,
 * in row order, into a partial sum; partial sums are added in a tree and returned to the driver, which
 * adds them into {@code out}. Sums agree with the in-memory ones to rounding (the partial sums are added
 * in another order). Nothing here is noisy: the caller's run core releases only noisy functions of them.
 */
public final class SparkPasses implements DataPasses {
    private final DistributedData data;
    private final int depth;
    private long passes;

    /** Passes over data (tree depth 2). */
    public SparkPasses(DistributedData data) {
        this.data = Checks.notNull("data", data);
        this.depth = 2;
    }

    @Override
    public int dimension() {
        return data.dimension();
    }

    /** Full passes made so far. */
    public long passes() {
        return passes;
    }

    /** What one pass computes on one block, into acc (length d, or d + 1 with the value last). */
    @FunctionalInterface
    private interface Kernel extends java.io.Serializable {
        void add(DatasetPasses block, GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj v, double[] acc);
    }

    private double[] aggregate(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj v, int width, Kernel k) {
        int d = data.dimension();
        Checks.vector("w", w, d);
        LossCodec codec = LossCodec.of(loss);
        JavaSparkContext jsc = SparkEngine.context(data.session());
        Broadcast<double[]> bw = jsc.broadcast(w.data.clone());
        Broadcast<double[]> bv = v == null ? null : jsc.broadcast(v.data.clone());
        try {
            passes++;
            return SparkEngine.call(() -> data.blocks().treeAggregate(new double[width], (acc, b) -> {
                DMatrixRMaj wm = DMatrixRMaj.wrap(d, 1, bw.value());
                DMatrixRMaj vm = bv == null ? null : DMatrixRMaj.wrap(d, 1, bv.value());
                k.add(new DatasetPasses(b.dataset()), codec.loss(), wm, vm, acc);
                return acc;
            }, (a, b) -> {
                for (int j = 0; j < a.length; j++) {
                    a[j] += b[j];
                }
                return a;
            }, depth));
        } finally {
            bw.destroy();
            if (bv != null) {
                bv.destroy();
            }
        }
    }

    @Override
    public void addGradient(GeneralizedLinearLoss loss, DMatrixRMaj w, double scale, DMatrixRMaj out) {
        int d = data.dimension();
        double[] g = aggregate(loss, w, null, d,
                (blk, l, wm, vm, acc) -> blk.addGradient(l, wm, scale, DMatrixRMaj.wrap(d, 1, acc)));
        addInto(g, out);
    }

    @Override
    public double addValueAndGradient(GeneralizedLinearLoss loss, DMatrixRMaj w, double scale, DMatrixRMaj out) {
        int d = data.dimension();
        double[] g = aggregate(loss, w, null, d + 1, (blk, l, wm, vm, acc) -> {
            DMatrixRMaj head = new DMatrixRMaj(d, 1);
            acc[d] += blk.addValueAndGradient(l, wm, scale, head);
            for (int j = 0; j < d; j++) {
                acc[j] += head.data[j];
            }
        });
        addInto(g, out);
        return g[d];
    }

    @Override
    public void addHessianVector(GeneralizedLinearLoss loss, DMatrixRMaj w, DMatrixRMaj v, double scale,
            DMatrixRMaj out) {
        int d = data.dimension();
        Checks.vector("v", v, d);
        double[] g = aggregate(loss, w, v, d,
                (blk, l, wm, vm, acc) -> blk.addHessianVector(l, wm, vm, scale, DMatrixRMaj.wrap(d, 1, acc)));
        addInto(g, out);
    }

    @Override
    public void addHessian(GeneralizedLinearLoss loss, DMatrixRMaj w, double scale, DMatrixRMaj out) {
        int d = data.dimension();
        if (out.numRows != d || out.numCols != d) {
            throw Checks.fail("out", "a " + d + "x" + d + " matrix", out.numRows + "x" + out.numCols);
        }
        double[] h = aggregate(loss, w, null, d * d,
                (blk, l, wm, vm, acc) -> blk.addHessian(l, wm, scale, DMatrixRMaj.wrap(d, d, acc)));
        for (int k = 0; k < d * d; k++) {
            out.data[k] += h[k];
        }
    }

    @Override
    public void requireSupNorm(double bound) {
        SparkEngine.call(() -> data.blocks().map(b -> {
            DatasetPasses.requireSupNorm(b.dataset(), bound, b.firstId);
            return 0L;
        }).count());
    }

    private static void addInto(double[] g, DMatrixRMaj out) {
        for (int j = 0; j < out.numRows; j++) {
            out.data[j] += g[j];
        }
    }
}
