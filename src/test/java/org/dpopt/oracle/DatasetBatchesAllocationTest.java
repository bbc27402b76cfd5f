package org.dpopt.oracle;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import org.dpopt.data.Dataset;
import org.dpopt.loss.Losses;
import org.dpopt.noise.Rngs;
import org.dpopt.sampling.BatchSampler;
import org.dpopt.sampling.PlannedPoissonSampler;
import org.dpopt.sampling.PoissonSampler;
import org.dpopt.sampling.TruncatedPoissonSampler;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * A run over many records with small batches allocates for the batch, not for the dataset: the bytes
 * this thread allocates in {@link DatasetBatches#open} plus {@value #STEPS} steps of Poisson batches of
 * expected size b = 16 over n = 10⁶ rows stay below {@value #BOUND_BYTES} bytes. Slot arrays of n
 * entries (an int and a double per record) would be 12 MB, a thousand times the bound, while slots for
 * about b + 8√b records, the chunk buffers and the sampler are a few kilobytes; the bound leaves room
 * for the rare growth of the slots. The bound holds for the fewest bytes of {@value #RUNS} identical runs:
 * the first use's class loading and a run made while the just-in-time compiler is still compiling the
 * step allocate megabytes when this test runs alone in a fresh JVM (measured: 4.2 MB, then 3 KB once
 * compiled, and 2.3 MB for a second run started straight after the first), while slots of n entries
 * would be allocated by every run. Deterministic in what it asserts (fixed seeds).
 */
class DatasetBatchesAllocationTest {

    private static final int N = 1_000_000;
    private static final int STEPS = 1_000;
    private static final long BOUND_BYTES = 12_000;
    private static final int RUNS = 5;

    private static Dataset bigData() {
        DMatrixRMaj x = new DMatrixRMaj(N, 2);
        double[] y = new double[N];
        for (int i = 0; i < N; i++) {
            x.data[2 * i] = (i % 7) / 7.0;
            x.data[2 * i + 1] = 0.5;
            y[i] = i % 2 == 0 ? 1 : -1;
        }
        return Dataset.of(x, y, 1.0);
    }

    private static long bytesOfRun(Dataset data, BatchSampler sampler) {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        DatasetBatches batches = new DatasetBatches(data, Losses.logistic());
        DMatrixRMaj w = new DMatrixRMaj(2, 1);
        DMatrixRMaj out = new DMatrixRMaj(2, 1);
        long before = threads.getCurrentThreadAllocatedBytes();
        batches.open(sampler, N, Rngs.seeded(5));
        for (long t = 0; t < STEPS; t++) {
            batches.addBatch(t, w, 1.0, out);
        }
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void smallPoissonBatchesOverManyRowsAllocateForTheBatchOnly() {
        Dataset data = bigData();
        BatchSampler[] samplers = {new PoissonSampler(16, STEPS), new TruncatedPoissonSampler(16, 48, STEPS)};
        for (BatchSampler s : samplers) {
            long bytes = Long.MAX_VALUE;
            for (int r = 0; r < RUNS; r++) {
                bytes = Math.min(bytes, bytesOfRun(data, s));
            }
            assertTrue(bytes < BOUND_BYTES, s.name() + ": open + " + STEPS + " steps over n = " + N
                    + " must allocate less than " + BOUND_BYTES + " bytes but allocated " + bytes);
        }
    }

    @Test
    void thePlannedSamplerStartsFromTheSameSmallSlots() {
        // the planned iterator materializes its plan (O(n) by design); the slots themselves stay small
        PlannedPoissonSampler s = PlannedPoissonSampler.of(new PoissonSampler(16, 10));
        assertTrue(s.initialBatchSlots(N) < 100, "starting slots " + s.initialBatchSlots(N));
    }
}
