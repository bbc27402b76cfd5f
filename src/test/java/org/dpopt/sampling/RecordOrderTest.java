package org.dpopt.sampling;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.noise.Rngs;
import org.junit.jupiter.api.Test;

class RecordOrderTest {

    @Test
    void blockShuffleIsAPermutationOfShuffledBlocks() {
        for (int block : new int[] {1, 3, 8, 50, 64}) {
            int[] o = RecordOrder.blockShuffle(50, block, Rngs.seeded(block));
            boolean[] seen = new boolean[50];
            for (int i : o) {
                assertTrue(!seen[i]);
                seen[i] = true;
            }
            // rows of a block stay together and in order
            for (int k = 0; k + 1 < 50; k++) {
                if (o[k] % block != block - 1 && o[k] != 49) {
                    assertEquals(o[k] + 1, o[k + 1]);
                }
            }
            // a block starts at a multiple of the block size
            assertEquals(0, o[0] % block);
        }
        int[] a = RecordOrder.blockShuffle(1000, 1, Rngs.seeded(2));
        int fixed = 0;
        for (int i = 0; i < 1000; i++) {
            fixed += a[i] == i ? 1 : 0;
        }
        // the number of fixed points of a uniform permutation is ~Poisson(1): P(≥ 10) < 1.2e-7
        assertTrue(fixed < 10, "a random permutation has ~1 fixed point, got " + fixed);
        assertThrows(IllegalArgumentException.class, () -> RecordOrder.blockShuffle(10, 0, Rngs.seeded(1)));
        assertThrows(IllegalArgumentException.class, () -> RecordOrder.blockShuffle(0, 1, Rngs.seeded(1)));
    }

    @Test
    void theEnumOrdersAreBlockShufflesOfTheirBlockSize() {
        // the same draws: SHUFFLE is a row-level block shuffle, BLOCK_SHUFFLE one of BLOCK rows
        assertArrayEquals(RecordOrder.blockShuffle(100, 1, Rngs.seeded(3)),
                RecordOrder.SHUFFLE.permutation(100, Rngs.seeded(3)));
        assertArrayEquals(RecordOrder.blockShuffle(100, RecordOrder.BLOCK, Rngs.seeded(3)),
                RecordOrder.BLOCK_SHUFFLE.permutation(100, Rngs.seeded(3)));
        // and the draws are those of the descending Fisher–Yates over blocks (seeded runs keep their bits)
        assertArrayEquals(fisherYatesBlocks(103, 8, Rngs.seeded(9)), RecordOrder.blockShuffle(103, 8, Rngs.seeded(9)));
        int[] given = RecordOrder.GIVEN.permutation(20, Rngs.seeded(1));
        for (int i = 0; i < 20; i++) {
            assertEquals(i, given[i]);
        }
    }

    /** Reference: swap block b with a uniform one of 0..b, for b = count − 1 down to 1, then expand. */
    private static int[] fisherYatesBlocks(int n, int block, org.apache.commons.rng.UniformRandomProvider rng) {
        int count = (n + block - 1) / block;
        int[] blocks = new int[count];
        for (int b = 0; b < count; b++) {
            blocks[b] = b;
        }
        for (int b = count - 1; b > 0; b--) {
            int k = rng.nextInt(b + 1);
            int t = blocks[b];
            blocks[b] = blocks[k];
            blocks[k] = t;
        }
        int[] order = new int[n];
        int pos = 0;
        for (int b : blocks) {
            for (int i = b * block; i < Math.min(n, (b + 1) * block); i++) {
                order[pos++] = i;
            }
        }
        return order;
    }

    @Test
    void theAutomaticBlockKeepsFourBlocksPerBatch() {
        assertEquals(1, RecordOrder.blockFor(1));
        assertEquals(1, RecordOrder.blockFor(7));
        assertEquals(2, RecordOrder.blockFor(8));
        assertEquals(25, RecordOrder.blockFor(100));
        assertEquals(64, RecordOrder.blockFor(1_000_000));
        assertThrows(IllegalArgumentException.class, () -> RecordOrder.blockFor(0));
    }
}
