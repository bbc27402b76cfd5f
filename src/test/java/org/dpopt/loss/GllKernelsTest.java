package org.dpopt.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.DoubleConsumer;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The full-pass kernels: the sequential pass is the row-by-row loop bit for bit; the parallel pass gives
 * the sequential bits on every thread count and block size, and a failure on any thread reaches the caller.
 * Deterministic (fixed seeds).
 */
class GllKernelsTest {

    private static Dataset data(int n, int d, long seed) {
        UniformRandomProvider rng = Rngs.seeded(seed);
        return Synthetic.logistic(n, Synthetic.plantedVector(d, 2.0, rng), rng).data();
    }

    @Test
    void sequentialPassIsTheRowByRowLoopBitForBit() {
        for (int n : new int[] {1, 3, 4, 1001}) {
            Dataset data = data(n, 7, n);
            GeneralizedLinearLoss loss = Losses.logistic();
            DMatrixRMaj w = Synthetic.plantedVector(7, 1.5, Rngs.seeded(9));
            DMatrixRMaj expected = new DMatrixRMaj(7, 1);
            double lossSum = 0;
            for (int i = 0; i < n; i++) {
                data.addScaledRow(i, loss.derivative(data.dot(i, w), data.label(i)) / n, expected);
                lossSum += loss.phi(data.dot(i, w), data.label(i));
            }
            DMatrixRMaj got = new DMatrixRMaj(7, 1);
            GllKernels.addGradient(data, loss, w, n, got);
            assertArrayEquals(expected.data, got.data, 0.0, "n=" + n);
            assertEquals(Double.doubleToLongBits(lossSum), Double.doubleToLongBits(GllKernels.lossSum(data, loss, w)));
        }
    }

    @Test
    void parallelPassGivesTheSequentialBitsOnEveryThreadCountAndBlockSize() {
        GeneralizedLinearLoss loss = Losses.logistic();
        int cases = 0;
        for (int n : new int[] {1, 7, 8, 999, 4099}) {
            Dataset data = data(n, 13, 100 + n);
            DMatrixRMaj w = Synthetic.plantedVector(13, 1.5, Rngs.seeded(11));
            DMatrixRMaj seq = new DMatrixRMaj(13, 1);
            seq.data[3] = 0.25; // the pass adds to what out holds
            DMatrixRMaj start = seq.copy();
            GllKernels.addGradient(data, loss, w, Math.max(1, n), seq);
            for (int threads : new int[] {1, 2, 3, 5}) {
                for (int block : new int[] {4, 8, 12, 64, 512}) {
                    DMatrixRMaj par = start.copy();
                    GllKernels.addGradient(data, loss, w, Math.max(1, n), par, threads, block, 0);
                    assertArrayEquals(seq.data, par.data, 0.0, "n=" + n + " threads=" + threads + " block=" + block);
                    cases++;
                }
            }
        }
        assertEquals(100, cases);
    }

    /**
     * More threads than cores, tiny blocks, many passes: helpers are often descheduled mid-block, the
     * caller then computes their blocks itself and the ring buffers are reused while late writers finish.
     * Every pass must still give the sequential bits. (This caught a ring-reuse race in an earlier version.)
     */
    @Test
    void oversubscribedPassesKeepTheSequentialBits() {
        Dataset data = data(200_000, 9, 41);
        GeneralizedLinearLoss loss = Losses.logistic();
        DMatrixRMaj w = Synthetic.plantedVector(9, 1.5, Rngs.seeded(42));
        DMatrixRMaj seq = new DMatrixRMaj(9, 1);
        GllKernels.addGradient(data, loss, w, 200_000, seq);
        int threads = Math.max(4, 2 * Runtime.getRuntime().availableProcessors() + 1);
        for (int pass = 0; pass < 20; pass++) {
            DMatrixRMaj par = new DMatrixRMaj(9, 1);
            GllKernels.addGradient(data, loss, w, 200_000, par, threads, 4 + pass % 5, 0);
            assertArrayEquals(seq.data, par.data, 0.0, "pass " + pass);
        }
    }

    @Test
    void defaultEntryPointGivesTheSequentialBitsAboveTheParallelThreshold() {
        int d = 16;
        int n = (int) (GllKernels.PARALLEL_MIN_ENTRIES / d) + 3 * GllKernels.BLOCK + 5;
        Dataset data = data(n, d, 77);
        GeneralizedLinearLoss loss = Losses.logistic();
        DMatrixRMaj w = Synthetic.plantedVector(d, 1.0, Rngs.seeded(12));
        DMatrixRMaj seq = new DMatrixRMaj(d, 1);
        GllKernels.addGradient(data, loss, w, n, seq);
        DMatrixRMaj par = new DMatrixRMaj(d, 1);
        GllKernels.addGradient(data, loss, w, n, par, 2);
        assertArrayEquals(seq.data, par.data, 0.0);
        assertThrows(IllegalArgumentException.class,
                () -> GllKernels.addGradient(data, loss, w, n, new DMatrixRMaj(d, 1), 0));
    }

    @Test
    void aFailingRowStopsEveryThreadAndTheCallerGetsTheOriginalError() {
        Dataset data = data(2000, 5, 3);
        GeneralizedLinearLoss logistic = Losses.logistic();
        int bad = 1234;
        double badDot = data.dot(bad, w5());
        GeneralizedLinearLoss failing = new HookedLoss(logistic, u -> {
            if (u == badDot) {
                throw new IllegalArgumentException("row " + bad + " refused");
            }
        });
        for (int threads : new int[] {2, 3}) {
            IllegalArgumentException e = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThrows(
                    IllegalArgumentException.class,
                    () -> GllKernels.addGradient(data, failing, w5(), 2000, new DMatrixRMaj(5, 1), threads, 8, 0)));
            assertEquals("row " + bad + " refused", e.getMessage());
        }
        // the pool is still usable afterwards
        DMatrixRMaj seq = new DMatrixRMaj(5, 1);
        GllKernels.addGradient(data, logistic, w5(), 2000, seq);
        DMatrixRMaj par = new DMatrixRMaj(5, 1);
        GllKernels.addGradient(data, logistic, w5(), 2000, par, 2, 8, 0);
        assertArrayEquals(seq.data, par.data, 0.0);
    }

    /**
     * A helper that the operating system does not run (here: one stalled inside its first block until the
     * test lets it go) must not hold up the caller: the caller computes that helper's blocks itself and
     * returns with the sequential bits while the helper is still stalled.
     */
    @Test
    void aStalledHelperDoesNotHoldUpTheCaller() throws InterruptedException {
        Dataset data = data(2000, 5, 4);
        GeneralizedLinearLoss logistic = Losses.logistic();
        DMatrixRMaj seq = new DMatrixRMaj(5, 1);
        GllKernels.addGradient(data, logistic, w5(), 2000, seq);
        for (int threads : new int[] {2, 3}) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicBoolean stalled = new AtomicBoolean();
            AtomicBoolean resumed = new AtomicBoolean();
            GeneralizedLinearLoss stalling = new HookedLoss(logistic, u -> {
                if (!Thread.currentThread().getName().startsWith("dpopt-pass")) {
                    waitUntil(stalled); // the caller: let a helper take a block and stall first
                } else if (stalled.compareAndSet(false, true)) {
                    awaitQuietly(release);
                    resumed.set(true);
                }
            });
            DMatrixRMaj par = new DMatrixRMaj(5, 1);
            GllKernels.addGradient(data, stalling, w5(), 2000, par, threads, 8, 0);
            boolean stillStalled = !resumed.get();
            release.countDown();
            assertArrayEquals(seq.data, par.data, 0.0, "threads=" + threads);
            assertEquals(true, stalled.get(), "a helper ran");
            assertEquals(true, stillStalled, "the pass returned without waiting for the stalled helper");
        }
    }

    /** An interrupted caller neither stops nor loses its interrupt: the same bits, the flag still set. */
    @Test
    void anInterruptedCallerKeepsTheBitsAndItsInterrupt() {
        Dataset data = data(3000, 6, 8);
        GeneralizedLinearLoss loss = Losses.logistic();
        DMatrixRMaj w = Synthetic.plantedVector(6, 1.0, Rngs.seeded(5));
        DMatrixRMaj seq = new DMatrixRMaj(6, 1);
        GllKernels.addGradient(data, loss, w, 3000, seq);
        for (int threads : new int[] {2, 4, 9}) {
            DMatrixRMaj par = new DMatrixRMaj(6, 1);
            Thread.currentThread().interrupt();
            GllKernels.addGradient(data, loss, w, 3000, par, threads, 5, 0);
            assertEquals(true, Thread.interrupted(), "threads=" + threads);
            assertArrayEquals(seq.data, par.data, 0.0, "threads=" + threads);
        }
    }

    /** Every thread count and every d: the bands split 0..d strictly, and the Hessian keeps the bits. */
    @Test
    void hessianBandsAndBitsForEveryDimensionAndThreadCount() {
        for (int d = 1; d <= 160; d++) {
            for (int k = 1; k <= d; k++) {
                int[] bands = GllKernels.triangleBands(d, k);
                assertEquals(0, bands[0]);
                assertEquals(d, bands[k]);
                for (int t = 0; t < k; t++) {
                    assertEquals(true, bands[t] < bands[t + 1], "d=" + d + " k=" + k + " band " + t);
                }
            }
        }
        GeneralizedLinearLoss loss = Losses.logistic();
        for (int d : new int[] {1, 3, 4, 7, 17, 18, 33}) {
            int n = (int) Math.max(50, 2 * GllKernels.PARALLEL_MIN_ENTRIES / ((long) d * (d + 1)) + 1);
            Dataset data = data(n, d, 300 + d);
            DMatrixRMaj w = Synthetic.plantedVector(d, 1.5, Rngs.seeded(d));
            double[] seq = new double[d * d];
            GllKernels.addHessianUpper(data, loss, w, n, seq, 0, d);
            for (int threads = 2; threads <= 9; threads++) {
                double[] par = new double[d * d];
                GllKernels.addHessianUpper(data, loss, w, n, par, threads);
                assertArrayEquals(seq, par, 0.0, "d=" + d + " threads=" + threads);
            }
        }
    }

    /**
     * Long stress (tagged slow): thousands of passes, threads 2..9, blocks 1..9 and up to 70, random n and
     * d, with busy threads that yield, all against the sequential bits. The harness of this test found the
     * ring-reuse race fixed in 65b644f in 25 of 200 passes of its big-n loop.
     */
    @Test
    @Tag("slow")
    void stressManyPassesUnderLoadKeepTheSequentialBits() throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> load = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            Thread t = new Thread(() -> {
                long x = 0;
                while (!stop.get()) {
                    x = (++x & 1023) == 0 ? yieldOnce(x) : x * 31 + 7;
                }
            });
            t.setDaemon(true);
            t.start();
            load.add(t);
        }
        try {
            stressBigN(600);
            stressRandomShapes(1500);
        } finally {
            stop.set(true);
            for (Thread t : load) {
                t.join();
            }
        }
    }

    private static long yieldOnce(long x) {
        Thread.yield();
        return x + 1;
    }

    private static void stressBigN(int passes) {
        int n = 100_003;
        Dataset data = data(n, 3, 17);
        GeneralizedLinearLoss loss = Losses.logistic();
        DMatrixRMaj w = Synthetic.plantedVector(3, 1.5, Rngs.seeded(42));
        DMatrixRMaj seq = new DMatrixRMaj(3, 1);
        GllKernels.addGradient(data, loss, w, n, seq);
        SplittableRandom r = new SplittableRandom(1);
        for (int pass = 0; pass < passes; pass++) {
            int threads = 2 + r.nextInt(8);
            int block = 1 + r.nextInt(9);
            DMatrixRMaj par = new DMatrixRMaj(3, 1);
            GllKernels.addGradient(data, loss, w, n, par, threads, block, 0);
            assertArrayEquals(seq.data, par.data, 0.0, "pass " + pass + " threads=" + threads + " block=" + block);
        }
    }

    private static void stressRandomShapes(int shapes) {
        GeneralizedLinearLoss loss = Losses.logistic();
        SplittableRandom r = new SplittableRandom(2);
        for (int it = 0; it < shapes; it++) {
            int n = 1 + r.nextInt(r.nextBoolean() ? 100 : 6000);
            int d = 1 + r.nextInt(17);
            Dataset data = data(n, d, r.nextLong());
            DMatrixRMaj w = Synthetic.plantedVector(d, 0.5 + 3 * r.nextDouble(), Rngs.seeded(r.nextLong()));
            DMatrixRMaj start = new DMatrixRMaj(d, 1);
            start.data[0] = r.nextDouble() - 0.5;
            DMatrixRMaj seq = start.copy();
            GllKernels.addGradient(data, loss, w, n, seq);
            for (int rep = 0; rep < 4; rep++) {
                int threads = 2 + r.nextInt(8);
                int block = 1 + r.nextInt(r.nextBoolean() ? 9 : 70);
                DMatrixRMaj par = start.copy();
                GllKernels.addGradient(data, loss, w, n, par, threads, block, 0);
                assertArrayEquals(seq.data, par.data, 0.0, "n=" + n + " d=" + d + " threads=" + threads
                        + " block=" + block);
            }
        }
    }

    private static void waitUntil(AtomicBoolean flag) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (!flag.get() && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(3, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A loss with a hook given the score at the start of every derivative (to stall or fail a thread). */
    private static final class HookedLoss implements GeneralizedLinearLoss {
        private final GeneralizedLinearLoss base;
        private final DoubleConsumer hook;

        HookedLoss(GeneralizedLinearLoss base, DoubleConsumer hook) {
            this.base = base;
            this.hook = hook;
        }

        @Override
        public double phi(double u, double y) {
            return base.phi(u, y);
        }

        @Override
        public double derivative(double u, double y) {
            hook.accept(u);
            return base.derivative(u, y);
        }

        @Override
        public double secondDerivative(double u, double y) {
            return base.secondDerivative(u, y);
        }

        @Override
        public double scalarLipschitz() {
            return base.scalarLipschitz();
        }

        @Override
        public double scalarSmoothness() {
            return base.scalarSmoothness();
        }

        @Override
        public boolean isClassification() {
            return base.isClassification();
        }

        @Override
        public Convexity convexity() {
            return base.convexity();
        }

        @Override
        public String name() {
            return "hooked " + base.name();
        }
    }

    private static DMatrixRMaj w5() {
        return Synthetic.plantedVector(5, 1.0, Rngs.seeded(13));
    }

    @Test
    void parallelHessianGivesTheSequentialBits() {
        int d = 40;
        int n = 1500; // n·d(d+1)/2 above the parallel threshold
        Dataset data = data(n, d, 21);
        GeneralizedLinearLoss loss = Losses.logistic();
        DMatrixRMaj w = Synthetic.plantedVector(d, 1.5, Rngs.seeded(22));
        double[] seq = new double[d * d];
        GllKernels.addHessianUpper(data, loss, w, n, seq, 0, d);
        double[] direct = new double[d * d];
        DMatrixRMaj row = new DMatrixRMaj(d, 1);
        for (int i = 0; i < n; i++) {
            double c = loss.secondDerivative(data.dot(i, w), data.label(i)) / n;
            data.row(i, row);
            for (int a = 0; a < d; a++) {
                for (int b = a; b < d; b++) {
                    direct[a * d + b] += c * row.data[a] * row.data[b];
                }
            }
        }
        assertArrayEquals(direct, seq, 0.0, "the sequential pass is the textbook loop (nonzero rows and entries)");
        for (int threads : new int[] {1, 2, 3, 7}) {
            double[] par = new double[d * d];
            GllKernels.addHessianUpper(data, loss, w, n, par, threads);
            assertArrayEquals(seq, par, 0.0, "threads=" + threads);
        }
        for (int dd : new int[] {2, 5, 40, 108}) {
            for (int k : new int[] {2, 3, 4}) {
                if (dd < 2 * k) {
                    continue;
                }
                int[] bands = GllKernels.triangleBands(dd, k);
                assertEquals(0, bands[0]);
                assertEquals(dd, bands[k]);
                for (int t = 0; t < k; t++) {
                    assertEquals(true, bands[t] < bands[t + 1], "d=" + dd + " k=" + k + " band " + t);
                }
            }
        }
    }

    @Test
    void threadCountComesFromThePropertyOrTheMachine() {
        String old = System.getProperty(GllKernels.THREADS_PROPERTY);
        try {
            System.clearProperty(GllKernels.THREADS_PROPERTY);
            int k = GllKernels.passThreads();
            assertEquals(Math.min(GllKernels.DEFAULT_MAX_THREADS, Runtime.getRuntime().availableProcessors()), k);
            System.setProperty(GllKernels.THREADS_PROPERTY, "0");
            assertEquals(1, GllKernels.passThreads());
            System.setProperty(GllKernels.THREADS_PROPERTY, " 3 ");
            assertEquals(3, GllKernels.passThreads());
            System.setProperty(GllKernels.THREADS_PROPERTY, "two");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, GllKernels::passThreads);
            assertEquals(true, e.getMessage().contains("dpopt.threads"), e.getMessage());
        } finally {
            if (old == null) {
                System.clearProperty(GllKernels.THREADS_PROPERTY);
            } else {
                System.setProperty(GllKernels.THREADS_PROPERTY, old);
            }
        }
    }
}
