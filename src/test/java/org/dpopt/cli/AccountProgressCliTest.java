package org.dpopt.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code account calibrate --progress}: the count goes to stderr only and changes nothing on stdout. */
class AccountProgressCliTest {
    private static final String[] CALIBRATE = {"account", "calibrate", "--epsilon", "1", "--delta", "1e-5",
        "--sampling-rate", "0.01", "--steps", "1000", "--json"};

    private static String[] with(String... extra) {
        String[] a = java.util.Arrays.copyOf(CALIBRATE, CALIBRATE.length + extra.length);
        System.arraycopy(extra, 0, a, CALIBRATE.length, extra.length);
        return a;
    }

    @Test
    void progressCountsAccountantEvaluationsOnStderrAndLeavesTheResultUnchanged() throws Exception {
        CliTest.Run plain = CliTest.run(CALIBRATE);
        CliTest.Run shown = CliTest.run(with("--progress"));
        assertEquals(0, plain.code(), plain.err());
        assertEquals(0, shown.code(), shown.err());
        assertEquals(plain.out(), shown.out());
        assertTrue(shown.err().contains("accountant evaluations"), shown.err());
        assertTrue(!plain.err().contains("accountant evaluations"), plain.err());
        CliTest.Run quiet = CliTest.run(with("--quiet"));
        assertEquals(plain.out(), quiet.out());
        assertTrue(quiet.err().isEmpty(), quiet.err());
    }

    @Test
    void progressWithQuietIsRefused() throws Exception {
        CliTest.Run r = CliTest.run(with("--progress", "--quiet"));
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("dpopt: --progress must be absent with --quiet"), r.err());
    }
}
