package org.dpopt.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.dpopt.data.Dataset;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's synthetic rows: the executors' blocks and the in-memory copy (generated in place) are
 * the same rows bit for bit, for a block count that does not divide n; a block holds its rows once and
 * survives Java serialization unchanged.
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
}
