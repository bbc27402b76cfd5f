package org.dpopt.loss;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.dpopt.data.Dataset;
import org.ejml.data.DMatrixRMaj;

/**
 * The full gradient pass Σ (φ′(⟨w, xᵢ⟩, yᵢ)/n)·xᵢ on several threads with <em>the bits of the sequential
 * pass</em>, whatever the thread count.
 *
 * <p>Why the bits do not change: the rows are taken in blocks of {@code block} rows. A row's coefficient
 * cᵢ = φ′(⟨w, xᵢ⟩, yᵢ)/n depends on that row alone, so the coefficients of a block can be computed by any
 * thread in any order; the accumulation out += cᵢ·xᵢ, the only step whose result depends on an order, is
 * done by one thread (the caller), block after block and row after row, exactly as the sequential loop
 * does it. What runs in parallel is therefore the dots and derivatives of block b + 1 (split by rows
 * between the threads; the caller takes a smaller share, {@value #CALLER_SHARE} of the block) with the
 * accumulation of block b, whose rows the dots have just brought into cache. Two coefficient buffers
 * alternate; one barrier per block keeps the phases in step.
 *
 * <p>Threads come from a pool of daemon threads that end after {@value #IDLE_SECONDS} s without work, so
 * nothing keeps a caller's JVM alive or running after its work. A failure on any thread (a loss that
 * throws) releases the others and is rethrown to the caller.
 */
final class ParallelGradientPass {
    /** The caller's share of each block's dots (it also accumulates; a performance setting only). */
    static final double CALLER_SHARE = 0.25;
    private static final int IDLE_SECONDS = 2;
    private static final ThreadPoolExecutor POOL = new ThreadPoolExecutor(0, Integer.MAX_VALUE, IDLE_SECONDS,
            TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
                Thread t = new Thread(r, "dpopt-pass");
                t.setDaemon(true);
                return t;
            });

    private final Dataset rows;
    private final GeneralizedLinearLoss loss;
    private final double[] w;
    private final double n;
    private final int threads;
    private final int block;
    private final double[][] coefficients;
    private final Barrier barrier;

    private ParallelGradientPass(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n, int threads,
            int block) {
        this.rows = rows;
        this.loss = loss;
        this.w = w.data;
        this.n = n;
        this.threads = threads;
        this.block = block;
        this.coefficients = new double[][] {new double[block], new double[block]};
        this.barrier = new Barrier(threads);
    }

    /** out ← out + Σ (φ′(⟨w, xᵢ⟩, yᵢ)/n)·xᵢ on threads ≥ 2 threads, blocks of block ≥ 4 rows. Modified: out. */
    static void addGradient(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n, DMatrixRMaj out,
            int threads, int block) {
        new ParallelGradientPass(rows, loss, w, n, threads, block).run(out.data);
    }

    private void run(double[] out) {
        Runnable[] parts = new Runnable[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            parts[t] = () -> guarded(() -> work(id, id == 0 ? out : null));
        }
        try {
            runAll(parts);
        } catch (RuntimeException | Error e) {
            // the others stop with "another thread failed"; the first failure is the one to report
            Throwable first = barrier.failure();
            if (first != null && first != e) {
                throw asRuntime(first);
            }
            throw e;
        }
    }

    /**
     * Runs independent parts, the first on the calling thread and the others on the pool, and returns when
     * all have ended; the first failure (a runtime exception or error) is rethrown as it is.
     */
    static void runAll(Runnable[] parts) {
        List<Future<?>> others = new ArrayList<>();
        for (int t = 1; t < parts.length; t++) {
            others.add(POOL.submit(parts[t]));
        }
        Throwable first = null;
        try {
            parts[0].run();
        } catch (RuntimeException | Error e) {
            first = e;
        }
        boolean interrupted = false;
        for (Future<?> f : others) {
            while (true) {
                try {
                    f.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    first = first != null ? first : e.getCause();
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (first != null) {
            throw asRuntime(first);
        }
    }

    private void guarded(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException | Error e) {
            barrier.fail(e);
            throw e;
        }
    }

    /**
     * Thread id's part: in step b, its rows of block b's dots, then (the caller only) block b − 1's
     * accumulation; a barrier ends every step.
     */
    private void work(int id, double[] out) {
        int size = rows.size();
        int blocks = (size + block - 1) / block;
        for (int b = 0; b <= blocks; b++) {
            if (b < blocks) {
                int from = b * block;
                int to = Math.min(size, from + block);
                coefficientsOf(id, from, to, coefficients[b & 1]);
            }
            if (id == 0 && b > 0) {
                int from = (b - 1) * block;
                rows.addScaledRange(from, Math.min(size, from + block), coefficients[(b - 1) & 1], 0, out, 0);
            }
            barrier.await();
        }
    }

    /** cᵢ = φ′(⟨w, xᵢ⟩, yᵢ)/n into c[i − from] for this thread's rows of [from, to). Modified: c. */
    private void coefficientsOf(int id, int from, int to, double[] c) {
        int callerEnd = Math.min(to, from + (((int) ((to - from) * CALLER_SHARE)) & ~3));
        int lo;
        int hi;
        if (id == 0) {
            lo = from;
            hi = callerEnd;
        } else {
            int others = threads - 1;
            int per = (((to - callerEnd) + others - 1) / others + 3) & ~3;
            lo = Math.min(to, callerEnd + (id - 1) * per);
            hi = id == others ? to : Math.min(to, lo + per);
        }
        rows.dotsOfRange(lo, hi, w, 0, c, lo - from);
        for (int i = lo; i < hi; i++) {
            c[i - from] = loss.derivative(c[i - from], rows.label(i)) / n;
        }
    }

    private static RuntimeException asRuntime(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    /** A reusable barrier for a fixed number of threads that spins briefly, then yields; fails fast. */
    private static final class Barrier {
        private static final int SPINS = 1 << 8;
        private final int parties;
        private final AtomicInteger arrived = new AtomicInteger();
        private volatile int generation;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        Barrier(int parties) {
            this.parties = parties;
        }

        void await() {
            int g = generation;
            if (arrived.incrementAndGet() == parties) {
                arrived.set(0);
                generation = g + 1;
                return;
            }
            int spins = 0;
            while (generation == g) {
                Throwable f = failure.get();
                if (f != null) {
                    throw new IllegalStateException("another thread of the full pass failed", f);
                }
                if (++spins < SPINS) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
        }

        /** Records the first failure; the others only follow from it. */
        void fail(Throwable t) {
            failure.compareAndSet(null, t);
        }

        Throwable failure() {
            return failure.get();
        }
    }
}
