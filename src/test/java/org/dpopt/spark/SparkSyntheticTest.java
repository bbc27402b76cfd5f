package org.dpopt.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.dpopt.data.Dataset;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's synthetic rows: the executors' blocks and the in-memory copy (generated in place) are
 * the same rows bit for bit, for a block count that does not divide n; a block holds its rows once and
 * survives Java serialization unchanged; the keyed plan's cached step index does not count the rows again.
 */
class SparkSyntheticTest {

    @Test
    void executorsAndMemoryGenerateTheSameRows() {
        long n = 10_001;
        DistributedData dist = SparkSynthetic.distributed(SparkTests.spark(), n, 7, 3, 5);
        try {
            Dataset spark = dist.collect();
            Dataset mem = SparkSynthetic.inMemory(n, 7, 3, 5);
            assertEquals(n, mem.size());
            assertArrayEquals(mem.features().data, spark.features().data, 0);
            assertArrayEquals(mem.labels(), spark.labels(), 0);
            Dataset other = SparkSynthetic.inMemory(n, 7, 3, 6);
            assertEquals(false, java.util.Arrays.equals(mem.labels(), other.labels()));
        } finally {
            dist.unpersist();
        }
    }

    @Test
    void aBlockRoundTripsThroughSerialization() throws Exception {
        RowBlock b = SparkSynthetic.block(5, 100, 4, 3, 1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream o = new ObjectOutputStream(bytes)) {
            o.writeObject(b);
        }
        RowBlock c;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            c = (RowBlock) in.readObject();
        }
        assertEquals(33, b.firstId);
        assertEquals(b.firstId, c.firstId);
        assertEquals(b.rows, c.rows);
        assertArrayEquals(b.dataset().features().data, c.dataset().features().data, 0);
        assertArrayEquals(b.y, c.y, 0);
        RowBlock empty = new RowBlock(7, 0, 4, 1.0, new double[0], new double[0], 0);
        assertEquals("number of rows must be at least 1 but was 0",
                assertThrows(IllegalArgumentException.class, empty::dataset).getMessage());
    }

    @Test
    void theKeyedStepIndexIsCachedWithoutTheRows() {
        int n = 20_000;
        DistributedData dist = SparkSynthetic.distributed(SparkTests.spark(), n, 50, 2, 5);
        SparkBatches batches = new SparkBatches(dist, org.dpopt.loss.Losses.logistic(), null);
        try {
            batches.open(org.dpopt.sampling.PlannedPoissonSampler.of(org.dpopt.sampling.PoissonSampler.epochs(100, 1, n)),
                    n, org.dpopt.noise.Rngs.seeded(1));
            long rows = 0;
            long others = 0;
            int cachedAfter = 0;
            for (org.apache.spark.storage.RDDInfo info : SparkTests.spark().sparkContext().getRDDStorageInfo()) {
                if (info.id() == dist.blocks().id()) {
                    rows = info.memSize();
                } else if (info.id() > dist.blocks().id()) {
                    others += info.memSize();
                    cachedAfter++;
                }
            }
            assertTrue(rows >= 8L * n * 50, "rows cached: " + rows);
            assertEquals(1, cachedAfter, "the step index only");
            // the index holds about one (step, row) entry per record and epoch: 16 bytes a record, not 400
            assertTrue(others < rows / 10, "index " + others + " bytes against rows " + rows);
        } finally {
            // the last of the T = n/B = 200 steps releases the index
            batches.addBatch(199, new org.ejml.data.DMatrixRMaj(50, 1), 1.0, new org.ejml.data.DMatrixRMaj(50, 1));
            dist.unpersist();
        }
    }
}
