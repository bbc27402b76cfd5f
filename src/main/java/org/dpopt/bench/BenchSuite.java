package org.dpopt.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;

/** A benchmark suite run by {@code dpopt bench --suite NAME} (its name is its key in {@link BenchSuites}). */
public interface BenchSuite {
    /**
     * Runs the suite, writing CSV and PNG files into {@code out}.
     *
     * @param out output directory (exists)
     * @param quick smaller sizes for smoke tests
     * @param progress progress messages (stderr)
     * @return summary key/values printed on stdout (or as JSON)
     */
    Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception;

    /**
     * Runs the suite with a way to call {@code dpopt train} in this JVM (suites that measure the command
     * line's defaults use it; the others ignore it).
     *
     * @param train runs {@code dpopt train}
     */
    default Map<String, Object> run(Path out, boolean quick, PrintWriter progress, TrainRunner train)
            throws Exception {
        return run(out, quick, progress);
    }
}
