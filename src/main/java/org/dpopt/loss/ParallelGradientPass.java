package org.dpopt.loss;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.dpopt.data.Dataset;
import org.ejml.data.DMatrixRMaj;

/**
 * The full gradient pass Σ (φ′(⟨w, xᵢ⟩, yᵢ)/n)·xᵢ on several threads with <em>the bits of the sequential
 * pass</em>, whatever the thread count.
 *
 * <p>Why the bits do not change: the rows are taken in blocks of {@code block} rows. A row's coefficient
 * cᵢ = φ′(⟨w, xᵢ⟩, yᵢ)/n depends on that row alone, so the coefficients of a block can be computed by any
 * thread; the accumulation out += cᵢ·xᵢ, the only step whose result depends on an order, is done by the
 * caller alone, block after block and row after row, exactly as the sequential loop does it.
 *
 * <p>How the work is shared: helper threads claim blocks in order from one counter and write their
 * coefficients into a ring of {@value #RING} buffers (block c goes to buffer c mod {@value #RING}; it may be
 * claimed only when block c − {@value #RING} has been accumulated and no other helper is writing that buffer). The caller accumulates
 * block b as soon as its coefficients are there; when b is unclaimed it claims and computes it itself;
 * while a helper holds b it writes later blocks as a helper would, and when that helper is late (by
 * {@value #LATE_NANOS} ns) it computes b again into its own buffer. So a helper thread that the operating
 * system does not run (a loaded machine) costs the caller at most that delay, not a wait for the thread,
 * not even at the end: the caller returns once it has accumulated the last block.
 *
 * <p>Threads come from a pool of daemon threads that end after {@value #IDLE_SECONDS} s without work, so
 * nothing keeps a caller's JVM alive; a late helper may run past the caller's return, but only to the end
 * of the one block it holds. A failure on any thread (a loss that
 * throws) stops the others and the first failure is rethrown to the caller.
 */
final class ParallelGradientPass {
    /** Coefficient buffers in the ring (blocks computed ahead of the accumulation). */
    static final int RING = 4;
    private static final int IDLE_SECONDS = 2;
    private static final int SPINS = 1 << 8;
    /** How long the caller waits for a block a helper holds before computing it itself. */
    static final long LATE_NANOS = 2_000_000;
    /** A block's state in {@link #ready} once a helper has written it into the ring (0 before). */
    private static final int WRITTEN = 1;
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
    private final int blocks;
    private final double[][] ring;
    private final AtomicInteger nextClaim = new AtomicInteger();
    private final AtomicIntegerArray ready;
    /** 1 where a ring buffer has no writer (a helper takes it before claiming a block, gives it back after). */
    private final AtomicIntegerArray slotFree = freeSlots();
    private volatile int accumulated;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private ParallelGradientPass(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n, int threads,
            int block) {
        this.rows = rows;
        this.loss = loss;
        this.w = w.data;
        this.n = n;
        this.threads = threads;
        this.block = block;
        this.blocks = (rows.size() + block - 1) / block;
        this.ring = new double[RING][block];
        this.ready = new AtomicIntegerArray(blocks);
    }

    private static AtomicIntegerArray freeSlots() {
        AtomicIntegerArray a = new AtomicIntegerArray(RING);
        for (int s = 0; s < RING; s++) {
            a.set(s, 1);
        }
        return a;
    }

    /** out ← out + Σ (φ′(⟨w, xᵢ⟩, yᵢ)/n)·xᵢ on threads ≥ 2 threads, blocks of block ≥ 1 rows. Modified: out. */
    static void addGradient(Dataset rows, GeneralizedLinearLoss loss, DMatrixRMaj w, double n, DMatrixRMaj out,
            int threads, int block) {
        new ParallelGradientPass(rows, loss, w, n, threads, block).run(out.data);
    }

    /**
     * Starts the helpers and accumulates on the calling thread. Once every block is accumulated the caller
     * returns without waiting for the helpers: one still running (descheduled by a loaded machine) only
     * finishes a block in this pass's own ring, which nothing reads any more, and then finds no block
     * left. After a failure of any thread the caller waits for every helper and rethrows the first one.
     */
    private void run(double[] out) {
        List<Future<?>> helpers = new ArrayList<>();
        try {
            for (int t = 1; t < threads; t++) {
                helpers.add(POOL.submit(() -> guarded(this::help)));
            }
        } catch (RejectedExecutionException | OutOfMemoryError e) {
            // no more threads to be had (a process or container limit): go on with the helpers started;
            // the caller computes every block no helper claims
        }
        try {
            guarded(() -> accumulate(out));
        } catch (RuntimeException | Error e) {
            // recorded in failure (or an earlier failure of a helper is): rethrown below
        }
        Throwable first = failure.get();
        if (first != null) {
            awaitAll(helpers, first);
            throw asRuntime(first);
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
        first = awaitAll(others, first);
        if (first != null) {
            throw asRuntime(first);
        }
    }

    /**
     * Waits for every task (an interrupt is kept for later, not obeyed) and returns first if not null, else
     * the first task's failure in list order, else null.
     */
    private static Throwable awaitAll(List<Future<?>> tasks, Throwable first) {
        Throwable result = first;
        boolean interrupted = false;
        for (Future<?> f : tasks) {
            while (true) {
                try {
                    f.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    result = result != null ? result : e.getCause();
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return result;
    }

    private void guarded(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException | Error e) {
            failure.compareAndSet(null, e);
            throw e;
        }
    }

    /**
     * The caller: accumulates the blocks in order. Block b's coefficients come from the ring when a helper
     * has written them; if b is unclaimed, the caller claims and computes it itself; while a helper holds
     * it, the caller does a helper's work on a later block, and if the helper is still not done after
     * {@value #LATE_NANOS} ns (a thread the operating system is not running), the caller computes b again
     * into its own buffer (the same bits: a pure function of the rows) rather than wait longer.
     */
    private void accumulate(double[] out) {
        int size = rows.size();
        double[] own = new double[block];
        for (int b = 0; b < blocks; b++) {
            double[] c = null;
            long waiting = 0;
            while (c == null) {
                if (ready.get(b) == WRITTEN) {
                    c = ring[b % RING];
                } else if (nextClaim.get() == b) {
                    if (nextClaim.compareAndSet(b, b + 1)) {
                        compute(b, own);
                        c = own;
                    }
                } else if (writeNext()) {
                    waiting = 0;
                } else if (waiting == 0) {
                    waiting = System.nanoTime();
                } else if (System.nanoTime() - waiting > LATE_NANOS) {
                    compute(b, own);
                    c = own;
                } else {
                    Thread.onSpinWait();
                }
            }
            int from = b * block;
            rows.addScaledRange(from, Math.min(size, from + block), c, 0, out, 0);
            accumulated = b + 1;
        }
    }

    /** A helper: does {@link #writeNext} until every block is claimed. */
    private void help() {
        int spins = 0;
        while (nextClaim.get() < blocks) {
            spins = writeNext() ? 0 : pause(spins);
        }
    }

    /**
     * Claims the next block c and writes its coefficients into ring buffer c mod {@value #RING}, if c may be
     * claimed now: block c − RING accumulated and no other writer in that buffer. The writer takes the
     * buffer before the block (so no other writer, however late, can be in it) and gives it back after
     * writing, or at once if another thread claimed the block first. False if nothing was written.
     */
    private boolean writeNext() {
        int c = nextClaim.get();
        if (c >= blocks || c >= accumulated + RING) {
            return false;
        }
        int slot = c % RING;
        if (!slotFree.compareAndSet(slot, 1, 0)) {
            return false;
        }
        try {
            if (!nextClaim.compareAndSet(c, c + 1)) {
                return false;
            }
            compute(c, ring[slot]);
            ready.set(c, WRITTEN);
            return true;
        } finally {
            slotFree.set(slot, 1);
        }
    }

    /** The coefficients cᵢ = φ′(⟨w, xᵢ⟩, yᵢ)/n of block c into dst[i − c·block]. Modified: dst. */
    private void compute(int c, double[] dst) {
        int from = c * block;
        int to = Math.min(rows.size(), from + block);
        rows.dotsOfRange(from, to, w, 0, dst, 0);
        for (int i = from; i < to; i++) {
            dst[i - from] = loss.derivative(dst[i - from], rows.label(i)) / n;
        }
    }

    /** Waits a little (spinning, then yielding); throws if another thread has failed. */
    private int pause(int spins) {
        Throwable f = failure.get();
        if (f != null) {
            throw new IllegalStateException("another thread of the full pass failed", f);
        }
        if (spins < SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
        return spins + 1;
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
}
