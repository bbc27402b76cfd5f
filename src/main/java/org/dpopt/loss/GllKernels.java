package org.dpopt.loss;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * Full passes of a generalized linear loss φ over a {@link Dataset}: the loss sum and the gradient
 * Σ (φ′(⟨w, xᵢ⟩, yᵢ)/n)·xᵢ.
 *
 * <p>{@link #addGradient} is the sequential pass, row by row (dot, φ′, axpy; a four-rows-at-a-time variant
 * with the same bits measured slower on this machine kind and was not kept). {@link #addGradientBlocked} splits
 * the rows into a fixed partition of {@value #BLOCK}-row blocks, sums each block from zero (on any number
 * of threads) and adds the block sums in block order: the result depends on the partition only, never
 * on the thread count, but it groups the additions differently from the sequential pass (agreement to
 * rounding). Which one full-gradient algorithms use is {@link #passThreads()}.
 */
public final class GllKernels {
    /** Rows per block of the blocked pass (fixed: the partition must not depend on the machine). */
    public static final int BLOCK = 4096;
    /** System property selecting the blocked pass and its thread count (unset: the sequential pass). */
    public static final String THREADS_PROPERTY = "dpopt.threads";
    private static final Map<Integer, ExecutorService> POOLS = new ConcurrentHashMap<>();

    private GllKernels() {
    }

    /**
     * The threads of full passes: 0 (the default) for the sequential pass, k ≥ 1 for the blocked pass on
     * k threads (from the system property {@value #THREADS_PROPERTY}; all k ≥ 1 give the same bits).
     */
    public static int passThreads() {
        String v = System.getProperty(THREADS_PROPERTY);
        if (v == null || v.isBlank()) {
            return 0;
        }
        try {
            int k = Integer.parseInt(v.trim());
            if (k >= 0) {
                return k;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw Checks.fail(THREADS_PROPERTY, "a non-negative integer", v);
    }

    /** Σ φ(⟨w, xᵢ⟩, yᵢ) over the rows, added in row order. Not modified: w. */
    public static double lossSum(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w) {
        double s = 0;
        for (int i = 0; i < rows.size(); i++) {
            s += loss.phi(rows.dot(i, w), rows.label(i));
        }
        return s;
    }

    /** out ← out + Σ (φ′(⟨w, xᵢ⟩, yᵢ)/n)·xᵢ over all rows, in row order. Modified: out. Not modified: w. */
    public static void addGradient(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n,
            DMatrixRMaj out) {
        addGradient(rows, loss, w, n, 0, rows.size(), out);
    }

    /** The sequential pass over rows [from, to): dot, φ′, axpy per row. Modified: out. */
    static void addGradient(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n, int from, int to,
            DMatrixRMaj out) {
        for (int i = from; i < to; i++) {
            rows.addScaledRow(i, loss.derivative(rows.dot(i, w), rows.label(i)) / n, out);
        }
    }

    /**
     * out ← out + Σ_b (Σ_{i ∈ block b} (φ′(⟨w, xᵢ⟩, yᵢ)/n)·xᵢ), blocks of {@value #BLOCK} rows summed from
     * zero and added in block order; the same bits for every threads ≥ 1. Modified: out. Not modified: w.
     */
    public static void addGradientBlocked(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n,
            DMatrixRMaj out, int threads) {
        Checks.positive("threads", threads);
        int d = out.getNumElements();
        int blocks = (rows.size() + BLOCK - 1) / BLOCK;
        double[][] partial = new double[blocks][];
        int workers = Math.min(threads, blocks);
        if (workers <= 1) {
            sumBlocks(rows, loss, w, n, partial, d, 0, 1);
        } else {
            ExecutorService pool = POOLS.computeIfAbsent(workers, GllKernels::newPool);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < workers; t++) {
                int first = t;
                done.add(pool.submit(() -> sumBlocks(rows, loss, w, n, partial, d, first, workers)));
            }
            join(done);
        }
        double[] o = out.data;
        for (double[] p : partial) {
            for (int j = 0; j < d; j++) {
                o[j] += p[j];
            }
        }
    }

    /** Sums blocks first, first + stride, … each from zero into partial[b]. */
    private static void sumBlocks(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n,
            double[][] partial, int d, int first, int stride) {
        for (int b = first; b < partial.length; b += stride) {
            DMatrixRMaj acc = new DMatrixRMaj(d, 1);
            int from = b * BLOCK;
            addGradient(rows, loss, w, n, from, Math.min(rows.size(), from + BLOCK), acc);
            partial[b] = acc.data;
        }
    }

    private static void join(List<Future<?>> done) {
        try {
            for (Future<?> f : done) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during a full pass", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof RuntimeException r ? r : new IllegalStateException(c);
        }
    }

    private static ExecutorService newPool(int k) {
        return Executors.newFixedThreadPool(k, r -> {
            Thread t = new Thread(r, "dpopt-pass");
            t.setDaemon(true);
            return t;
        });
    }
}
