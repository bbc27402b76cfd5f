package org.dpopt.budget;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.dpopt.data.TextFiles;
import org.dpopt.linalg.Checks;

/**
 * A {@link BudgetLedger} kept in a file, shared by runs in any number of processes.
 *
 * <p>A run {@linkplain #open opens} a session, which holds an exclusive lock until closed: it reads the
 * ledger, checks that its release fits ({@link BudgetLedger#require}), trains, and {@linkplain
 * Session#write writes} the ledger with its release before publishing anything. Because the lock is held
 * from the check to the write, two runs can never both spend the last of a budget: the second one waits,
 * then sees the first one's release. The lock is an operating-system lock on the sibling file
 * {@code FILE.lock} (kept, never deleted: deleting it would let two runs lock different files), plus an
 * in-process lock for runs in the same JVM. The ledger itself is replaced atomically (temporary file and
 * rename), so a reader sees the old or the new ledger, never half of one; a run that fails before its
 * write changes nothing.
 */
public final class BudgetFile {
    private static final ConcurrentHashMap<Path, Semaphore> IN_PROCESS = new ConcurrentHashMap<>();

    private BudgetFile() {
    }

    /**
     * Reads a budget file without locking it (for display).
     *
     * @throws IllegalArgumentException if the file is missing, not a budget file, or its checksum fails
     */
    public static BudgetLedger read(Path file) {
        Checks.notNull("budget file", file);
        if (!Files.isRegularFile(file)) {
            throw Checks.fail("budget file", "an existing file", file);
        }
        return LedgerText.read(text(file), file.toString());
    }

    private static String text(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (MalformedInputException e) {
            throw Checks.fail("budget file " + file, "UTF-8 text", "not");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens a session on a budget file (existing or not yet created), waiting for the lock.
     *
     * @throws IllegalArgumentException if the path is a directory or its directory does not exist
     */
    public static Session open(Path file) {
        Checks.notNull("budget file", file);
        Path abs = file.toAbsolutePath().normalize();
        if (Files.isDirectory(abs)) {
            throw Checks.fail("budget file", "a file path, not a directory", file);
        }
        if (abs.getParent() == null || !Files.isDirectory(abs.getParent())) {
            throw Checks.fail("budget file", "in an existing directory", file);
        }
        Path lockPath = abs.resolveSibling(abs.getFileName() + ".lock");
        Semaphore local = IN_PROCESS.computeIfAbsent(lockPath, p -> new Semaphore(1));
        local.acquireUninterruptibly();
        try {
            FileChannel ch = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            try {
                return new Session(file, abs, local, ch, ch.lock());
            } catch (IOException | RuntimeException e) {
                ch.close();
                throw e;
            }
        } catch (IOException e) {
            local.release();
            throw new UncheckedIOException("cannot lock " + lockPath + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            local.release();
            throw e;
        }
    }

    /** An exclusive hold on a budget file; close it to let the next run in. */
    public static final class Session implements AutoCloseable {
        private final Path file;
        private final Path abs;
        private final Semaphore local;
        private final FileChannel channel;
        private final FileLock lock;
        private boolean closed;

        private Session(Path file, Path abs, Semaphore local, FileChannel channel, FileLock lock) {
            this.file = file;
            this.abs = abs;
            this.local = local;
            this.channel = channel;
            this.lock = lock;
        }

        /** The ledger in the file, or empty if the file does not exist yet. */
        public Optional<BudgetLedger> ledger() {
            requireOpen();
            return Files.exists(abs) ? Optional.of(read(file)) : Optional.empty();
        }

        /** Replaces the file's ledger atomically. */
        public void write(BudgetLedger ledger) {
            requireOpen();
            Checks.notNull("ledger", ledger);
            TextFiles.writeAtomically(abs, LedgerText.write(ledger));
        }

        private void requireOpen() {
            if (closed) {
                throw new IllegalStateException("budget session closed");
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                lock.release();
                channel.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot unlock " + abs + ": " + e.getMessage(), e);
            } finally {
                local.release();
            }
        }
    }
}
