package org.dpopt.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dpopt.data.Dataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The large in-memory epoch suite's plumbing at n = 10⁴ (no timing checked): its rows have the declared
 * law's support, a seed fixes them, and the CSV carries the epoch, the pass and the process's memory.
 */
class LargeEpochSuiteTest {

    @Test
    void rowsAreSeededBoundedAndLabelledPlusMinusOne() {
        Dataset a = LargeEpochSuite.generate(2000, 10, 1);
        Dataset b = LargeEpochSuite.generate(2000, 10, 1);
        assertArrayEquals(a.features().data, b.features().data, 0);
        int positive = 0;
        for (int i = 0; i < a.size(); i++) {
            assertTrue(a.rowNorm(i) <= 1.0);
            assertTrue(a.label(i) == 1 || a.label(i) == -1);
            positive += a.label(i) > 0 ? 1 : 0;
        }
        // u = ⟨w*, x⟩ is symmetric, so each label is +1 with probability 1/2, independently: by Hoeffding's
        // inequality P(positive count ∉ (600, 1400)) ≤ 2·exp(−2·400²/2000) = 2e^−160 (fixed seed anyway)
        assertTrue(positive > 600 && positive < 1400, "positives " + positive);
    }

    @Test
    void quickRunWritesTimesAndPeakMemory(@TempDir Path out) throws Exception {
        Map<String, Object> s = new LargeEpochSuite().run(out, true, new PrintWriter(new StringWriter()));
        assertEquals(10_000, s.get("n"));
        List<String> csv = Files.readAllLines(out.resolve("perf-large.csv"));
        assertEquals("rep,n,d,generate_s,dp_sgd_epoch_s,full_pass_s,full_pass_default_threads_s," + String.join(",", PeakMemory.KEYS), csv.get(0));
        assertEquals(2, csv.size());
        String[] c = csv.get(1).split(",");
        assertEquals("10000", c[1]);
        assertTrue(Double.parseDouble(c[4]) > 0);
        assertTrue(Double.parseDouble(c[5]) > 0 && Double.parseDouble(c[6]) > 0, csv.get(1));
        long heapPeak = Long.parseLong(c[7]);
        long heapMax = Long.parseLong(c[11]);
        assertTrue(heapPeak > 8L * 10_000 * 100 && heapMax > 0, csv.get(1));
        long rssPeak = Long.parseLong(c[12]);
        boolean proc = Files.isRegularFile(Path.of("/proc/self/status"));
        assertTrue(proc ? rssPeak >= Long.parseLong(c[13]) && rssPeak > 0 : rssPeak == -1, csv.get(1));
        assertTrue(Files.isRegularFile(out.resolve("perf-large.png")));
    }
}
