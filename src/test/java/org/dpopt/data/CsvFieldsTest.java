package org.dpopt.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CsvFieldsTest {

    /** The reference: String.split and Double.parseDouble of each stripped field; null if not numeric. */
    private static double[] reference(String line) {
        String[] parts = line.split(",", -1);
        double[] v = new double[parts.length];
        for (int k = 0; k < parts.length; k++) {
            try {
                v[k] = Double.parseDouble(parts[k].strip());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return v;
    }

    private static void assertSame(String line) {
        double[] want = reference(line);
        assertEquals(line.split(",", -1).length, CsvFields.count(line), line);
        double[] got = new double[CsvFields.count(line)];
        boolean ok = CsvFields.parse(line, got);
        assertEquals(want != null, ok, line);
        if (ok) {
            long[] w = new long[want.length];
            long[] g = new long[got.length];
            for (int k = 0; k < w.length; k++) {
                w[k] = Double.doubleToRawLongBits(want[k]);
                g[k] = Double.doubleToRawLongBits(got[k]);
            }
            assertArrayEquals(w, g, line);
        }
    }

    @Test
    void sameFieldsAndBitsAsSplitAndParse() {
        for (String line : List.of("0", "1", "0,1", "0,0,1,0", "-0,0", "0.0,1.0", " 0, 1 ", "0 ,1", "00,01",
                "1e3,0x1p3,0.3353584808", "NaN,Infinity,-Infinity", "0,", ",0", ",", "a,b,c", "0,a", "1,,1",
                "\u2003" + "1,0\u2003", "1d,2f", "+1,-1", "0,1,2,3,4,5,6,7,8,9")) {
            assertSame(line);
        }
    }

    @Test
    void randomLinesOfOneHotTables() {
        String[] cells = {"0", "1", "0.25", "-0", "1.5e-3", " 0", "", "x", "10", "0.10"};
        Random rnd = new Random(17);
        for (int r = 0; r < 2000; r++) {
            StringBuilder b = new StringBuilder();
            int n = 1 + rnd.nextInt(12);
            for (int k = 0; k < n; k++) {
                if (k > 0) {
                    b.append(',');
                }
                b.append(cells[rnd.nextInt(cells.length)]);
            }
            assertSame(b.toString());
        }
    }
}
