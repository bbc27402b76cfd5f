package org.dpopt.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Label checks: one binary encoding, k-class labels 0..k−1, at least two classes. */
class LabelsTest {

    static Dataset labelled(double... y) {
        double[][] x = new double[y.length][1];
        for (int i = 0; i < y.length; i++) {
            x[i][0] = 0.1;
        }
        return Dataset.of(x, y, 1.0);
    }

    @Test
    void binaryEncodingsAreRecognisedAndMixturesRefused() {
        assertEquals(Labels.BinaryEncoding.ZERO_ONE, Labels.binaryEncoding(labelled(0, 1, 1), "d"));
        assertEquals(Labels.BinaryEncoding.PLUS_MINUS_ONE, Labels.binaryEncoding(labelled(-1, 1, -1), "d"));
        assertEquals(Labels.BinaryEncoding.ZERO_ONE, Labels.binaryEncoding(labelled(1, 1), "d"));
        IllegalArgumentException mixed = assertThrows(IllegalArgumentException.class,
                () -> Labels.binaryEncoding(labelled(0, 1, -1), "train.csv"));
        assertTrue(mixed.getMessage().startsWith("label of row 2 of train.csv must be in the encoding of row 0 (0)"),
                mixed.getMessage());
        assertTrue(mixed.getMessage().endsWith("but was -1"), mixed.getMessage());
        for (double bad : new double[] {2, 0.5, -2}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Labels.binaryEncoding(labelled(0, 1, bad), "train.csv"));
            assertTrue(e.getMessage().startsWith("label of row 2 of train.csv must be 0 or 1 (or -1 or +1)"),
                    e.getMessage());
        }
        assertTrue(Labels.isBinaryEncoded(labelled(0, 1)));
        assertFalse(Labels.isBinaryEncoded(labelled(0, 1, -1)));
        assertFalse(Labels.isBinaryEncoded(labelled(0, 1, 2)));
    }

    @Test
    void classLabelsAreIntegersBelowK() {
        Labels.requireClasses(labelled(0, 2, 1), 3, "d");
        assertThrows(IllegalArgumentException.class, () -> Labels.requireClasses(labelled(0, 3), 3, "d"));
        assertThrows(IllegalArgumentException.class, () -> Labels.requireClasses(labelled(0, 1.5), 3, "d"));
        assertThrows(IllegalArgumentException.class, () -> Labels.requireClasses(labelled(-1, 1), 3, "d"));
        assertEquals(5, Labels.impliedClassCount(labelled(0, 4, 2), "d"));
        assertThrows(IllegalArgumentException.class, () -> Labels.impliedClassCount(labelled(0, 2.5), "d"));
        assertArrayEquals(new double[] {0, 2, 4}, Labels.distinct(labelled(4, 0, 2, 0)), 0);
    }

    @Test
    void aSingleClassIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Labels.requireTwoClasses(labelled(1, 1, 1), "train.csv"));
        assertEquals("labels of train.csv must be at least two different classes for a classifier but was only 1 in 3 "
                + "rows", e.getMessage());
        Labels.requireTwoClasses(labelled(1, 0), "train.csv");
    }
}
