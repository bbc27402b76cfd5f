package org.dpopt.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.dpopt.linalg.Checks;

/** Writing result files so that a reader never sees a half-written one. */
public final class TextFiles {
    private TextFiles() {
    }

    /**
     * Writes UTF-8 text to a temporary file beside the target, then renames it over the target (atomically
     * where the file system can). On failure the target is untouched and the temporary file removed.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    public static void writeAtomically(Path out, String text) {
        Checks.notNull("out", out);
        Checks.notNull("text", text);
        Path abs = out.toAbsolutePath().normalize();
        try {
            Path tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName(), ".tmp");
            try {
                Files.writeString(tmp, text, StandardCharsets.UTF_8);
                try {
                    Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
        }
    }
}
