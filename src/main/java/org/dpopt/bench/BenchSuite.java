package org.dpopt.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;

/** A benchmark suite run by {@code dpopt bench --suite NAME}. */
public interface BenchSuite {
    /** Suite name. */
    String name();

    /**
     * Runs the suite, writing CSV and PNG files into {@code out}.
     *
     * @param out output directory (exists)
     * @param quick smaller sizes for smoke tests
     * @param progress progress messages (stderr)
     * @return summary key/values printed on stdout (or as JSON)
     */
    Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception;
}
