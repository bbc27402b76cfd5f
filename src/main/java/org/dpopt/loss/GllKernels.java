package org.dpopt.loss;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.ejml.data.DMatrixRMaj;

/**
 * Full passes of a generalized linear loss φ over a {@link Dataset}: the loss sum and the gradient
 * Σ (φ′(⟨w, xᵢ⟩, yᵢ)/n)·xᵢ.
 *
 * <p>{@link #addGradient(Dataset, GeneralizedLinearLoss, DMatrixRMaj, double, DMatrixRMaj)} is the sequential
 * pass, row by row (dot, φ′, axpy; a four-rows-at-a-time variant with the same bits measured no faster on
 * this machine kind and was not kept). {@link #addGradient(Dataset, GeneralizedLinearLoss, DMatrixRMaj,
 * double, DMatrixRMaj, int)} runs the same pass on several threads with <em>the same bits</em>: the
 * per-row coefficients are computed in parallel, the accumulation stays in row order on one thread
 * ({@link ParallelGradientPass}). So a seeded run gives the same result on any machine and any thread
 * count. Full-gradient algorithms take {@link #passThreads()} threads.
 */
public final class GllKernels {
    /** Rows per block of the parallel pass (a performance setting: results do not depend on it). */
    public static final int BLOCK = 512;
    /** Below this many entries (rows × features) a pass runs on the calling thread only. */
    public static final long PARALLEL_MIN_ENTRIES = 1L << 20;
    /** System property fixing the threads of full passes (default: {@link #DEFAULT_MAX_THREADS} at most). */
    public static final String THREADS_PROPERTY = "dpopt.threads";
    /** The default thread count is min(this, available processors): two was measured, more was not. */
    public static final int DEFAULT_MAX_THREADS = 2;

    private GllKernels() {
    }

    /**
     * The threads of full passes: the system property {@value #THREADS_PROPERTY} if set (0 and 1 both
     * mean the calling thread only), else min({@value #DEFAULT_MAX_THREADS}, available processors). Every
     * value gives the same bits.
     */
    public static int passThreads() {
        String v = System.getProperty(THREADS_PROPERTY);
        if (v == null || v.isBlank()) {
            return Math.max(1, Math.min(DEFAULT_MAX_THREADS, Runtime.getRuntime().availableProcessors()));
        }
        try {
            int k = Integer.parseInt(v.trim());
            if (k >= 0) {
                return Math.max(1, k);
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
        for (int i = 0; i < rows.size(); i++) {
            rows.addScaledRow(i, loss.derivative(rows.dot(i, w), rows.label(i)) / n, out);
        }
    }

    /**
     * The same pass, bit for bit, on up to threads ≥ 1 threads (the calling thread only for passes below
     * {@value #PARALLEL_MIN_ENTRIES} entries or fewer than two blocks). Modified: out. Not modified: w.
     */
    public static void addGradient(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n,
            DMatrixRMaj out, int threads) {
        addGradient(rows, loss, w, n, out, threads, BLOCK, PARALLEL_MIN_ENTRIES);
    }

    /** As above with the block size and the size threshold given (tests use small ones). */
    static void addGradient(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n, DMatrixRMaj out,
            int threads, int block, long minEntries) {
        Checks.positive("threads", threads);
        Checks.vector("out", out, rows.dimension());
        long entries = (long) rows.size() * rows.dimension();
        if (threads == 1 || entries < minEntries || rows.size() < 2L * block) {
            addGradient(rows, loss, w, n, out);
        } else {
            ParallelGradientPass.addGradient(rows, loss, w, n, out, threads, block);
        }
    }

    /**
     * upper ← upper + Σᵢ (φ″(⟨w, xᵢ⟩, yᵢ)/n)·xᵢxᵢᵀ on the upper triangle (entries a ≤ b of the row-major d×d
     * array), rows in order, on up to threads ≥ 1 threads with the bits of the sequential pass: each thread
     * owns a band of triangle rows a (of about equal area) and adds every data row's terms to it in row
     * order, so each entry sees the same additions in the same order (the calling thread only below
     * {@value #PARALLEL_MIN_ENTRIES} entries of work). Modified: upper. Not modified: w.
     */
    public static void addHessianUpper(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n,
            double[] upper, int threads) {
        Checks.positive("threads", threads);
        int d = rows.dimension();
        long work = (long) rows.size() * d * (d + 1) / 2;
        if (threads == 1 || work < PARALLEL_MIN_ENTRIES || d < 2 * threads) {
            addHessianUpper(rows, loss, w, n, upper, 0, d);
            return;
        }
        int[] bands = triangleBands(d, threads);
        Runnable[] parts = new Runnable[threads];
        for (int t = 0; t < threads; t++) {
            int from = bands[t];
            int to = bands[t + 1];
            parts[t] = () -> addHessianUpper(rows, loss, w, n, upper, from, to);
        }
        ParallelGradientPass.runAll(parts);
    }

    /**
     * The sequential Hessian pass restricted to the triangle rows aFrom ≤ a &lt; aTo: for each data row in
     * order, c = φ″/n (rows with c = 0 skipped), then upper[a·d + b] += (c·x_a)·x_b for b ≥ a (terms with
     * c·x_a = 0 skipped). Modified: upper (only those rows). Not modified: w.
     */
    public static void addHessianUpper(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n,
            double[] upper, int aFrom, int aTo) {
        int d = rows.dimension();
        double[] x = new double[d];
        for (int i = 0; i < rows.size(); i++) {
            double c = loss.secondDerivative(rows.dot(i, w), rows.label(i)) / n;
            if (c == 0) {
                continue;
            }
            rows.copyRow(i, x, 0);
            for (int a = aFrom; a < aTo; a++) {
                double ca = c * x[a];
                if (ca == 0) {
                    continue;
                }
                int base = a * d;
                for (int b = a; b < d; b++) {
                    upper[base + b] += ca * x[b];
                }
            }
        }
    }

    /** Band starts 0 = a₀ &lt; a₁ &lt; … &lt; a_k = d splitting the triangle rows into k bands of about equal area. */
    static int[] triangleBands(int d, int k) {
        int[] bands = new int[k + 1];
        double total = d * (d + 1) / 2.0;
        int a = 0;
        double area = 0;
        for (int t = 1; t < k; t++) {
            while (a < d - (k - t) && area + (d - a) / 2.0 < total * t / k) {
                area += d - a;
                a++;
            }
            bands[t] = Math.max(a, bands[t - 1] + 1);
            a = bands[t];
        }
        bands[k] = d;
        return bands;
    }
}
