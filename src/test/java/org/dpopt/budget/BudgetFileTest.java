package org.dpopt.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.dpopt.accounting.NeighboringRelation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A budget file: read back as written, tampering refused, the last of a budget spent at most once. */
class BudgetFileTest {
    private static final NeighboringRelation AR = NeighboringRelation.ADD_OR_REMOVE_ONE;

    private static BudgetLedger twoRuns() {
        BudgetLedger.Entry run = BudgetLedgerTest.sgdRun("train --algorithm dp-sgd --data a b.csv\twith a tab");
        return BudgetLedger.empty(5, 1e-5, AR).record(run, AR).record(run, AR);
    }

    @Test
    void readsBackWhatWasWritten(@TempDir Path dir) {
        Path f = dir.resolve("budget.txt");
        BudgetLedger l = twoRuns();
        try (BudgetFile.Session s = BudgetFile.open(f)) {
            assertTrue(s.ledger().isEmpty());
            s.write(l);
            assertEquals(2, s.ledger().orElseThrow().entries().size());
        }
        BudgetLedger back = BudgetFile.read(f);
        assertEquals(l.entries(), back.entries());
        assertEquals(l.totalEpsilon(), back.totalEpsilon());
        assertEquals(l.totalDelta(), back.totalDelta());
        assertEquals(l.spent(), back.spent());
    }

    @Test
    void anyChangeToTheFileIsRefused(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("budget.txt");
        try (BudgetFile.Session s = BudgetFile.open(f)) {
            s.write(twoRuns());
        }
        String text = Files.readString(f);
        List<String> tampered = new ArrayList<>();
        tampered.add(text.replace("total_epsilon 5.0", "total_epsilon 50.0")); // raise the budget
        int second = text.indexOf("\nrelease ", text.indexOf("\nrelease ") + 1);
        tampered.add(text.substring(0, second + 1) + text.substring(text.indexOf('\n', second + 1) + 1)); // drop one
        tampered.add(text.replaceFirst("\t1\\.0E-6\t", "\t1.0E-7\t")); // shrink a delta
        tampered.add(text.substring(0, text.length() / 2)); // truncated
        tampered.add(text + "release x\n"); // appended after the checksum
        tampered.add(text.replace("\n", "\r\n")); // line endings rewritten
        tampered.add("");
        for (String t : tampered) {
            assertFalse(t.equals(text), "the tampering did not change the file");
            Files.writeString(f, t, StandardCharsets.UTF_8);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BudgetFile.read(f));
            assertTrue(e.getMessage().startsWith("budget file "), e.getMessage());
            try (BudgetFile.Session s = BudgetFile.open(f)) {
                assertThrows(IllegalArgumentException.class, s::ledger);
            }
        }
    }

    /**
     * Eight threads race for a budget that holds two runs, each holding its session from the check to the write
     * (with a pause in between, where a race would strike): exactly two may record. Deterministic: a correct lock
     * never fails this test, and a missing lock lets all eight pass the check during the pause.
     */
    @Test
    void concurrentRunsCannotBothSpendTheLastOfTheBudget(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("budget.txt");
        BudgetLedger.Entry run = BudgetLedgerTest.sgdRun("run");
        double total = BudgetLedger.empty(10, 1e-5, AR).record(run, AR).record(run, AR).spent().epsilon() * 1.001;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> runs = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            runs.add(pool.submit(() -> {
                start.await();
                try (BudgetFile.Session s = BudgetFile.open(f)) {
                    BudgetLedger l = s.ledger().orElse(BudgetLedger.empty(total, 1e-5, AR));
                    l.require(run, AR);
                    Thread.sleep(50);
                    s.write(l.record(run, AR));
                    return true;
                } catch (IllegalArgumentException refused) {
                    return false;
                }
            }));
        }
        start.countDown();
        int admitted = 0;
        for (Future<Boolean> r : runs) {
            admitted += r.get(120, TimeUnit.SECONDS) ? 1 : 0;
        }
        pool.shutdown();
        assertEquals(2, admitted);
        assertEquals(2, BudgetFile.read(f).entries().size());
    }

    /** The lock holds across processes: a second JVM waits while this one holds the session. */
    @Test
    void anotherProcessWaitsForTheLock(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("budget.txt");
        Process child;
        try (BudgetFile.Session s = BudgetFile.open(f)) {
            child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                    System.getProperty("java.class.path"), BudgetFileLockProbe.class.getName(), f.toString())
                    .redirectErrorStream(true).start();
            // while we hold the lock the child cannot finish, however long we wait
            assertFalse(child.waitFor(3, TimeUnit.SECONDS), "the other process took the lock we hold");
            s.write(twoRuns());
        }
        assertTrue(child.waitFor(120, TimeUnit.SECONDS), "the other process never got the lock");
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, child.exitValue(), out);
        assertEquals("entries 2", out.strip(), "the other process must see what was written under the lock");
    }

    @Test
    void directoriesAndMissingDirectoriesAreRefused(@TempDir Path dir) {
        assertThrows(IllegalArgumentException.class, () -> BudgetFile.open(dir));
        assertThrows(IllegalArgumentException.class, () -> BudgetFile.open(dir.resolve("no/such/file")));
        assertThrows(IllegalArgumentException.class, () -> BudgetFile.read(dir.resolve("missing")));
        assertThrows(IllegalArgumentException.class, () -> BudgetFile.read(dir));
    }
}
