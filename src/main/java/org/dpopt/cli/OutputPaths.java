package org.dpopt.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dpopt.data.TextFiles;
import org.dpopt.linalg.Checks;

/** Output files of the CLI: checked before any work starts, written atomically at the end. */
final class OutputPaths {
    private OutputPaths() {
    }

    /**
     * Refuses an output path that cannot be written or would overwrite an input: checked before training,
     * so that bad input writes nothing.
     */
    static void check(String flag, Path out, Path... inputs) {
        Path abs = out.toAbsolutePath().normalize();
        if (Files.isDirectory(abs)) {
            throw Checks.fail(flag, "a file path, not a directory", out);
        }
        Path parent = abs.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw Checks.fail(flag, "in an existing directory", out);
        }
        if (!Files.isWritable(parent) || (Files.exists(abs) && !Files.isWritable(abs))) {
            throw Checks.fail(flag, "writable", out);
        }
        for (Path in : inputs) {
            if (in != null && sameFile(abs, in)) {
                throw Checks.fail(flag, "different from the input " + in, out);
            }
        }
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.exists(b) && Files.exists(a) ? Files.isSameFile(a, b)
                    : a.equals(b.toAbsolutePath().normalize());
        } catch (IOException e) {
            return a.equals(b.toAbsolutePath().normalize());
        }
    }

    /** Writes text to a temporary file beside the target, then renames it over the target. */
    static void writeAtomically(Path out, String text) {
        TextFiles.writeAtomically(out, text);
    }
}
