package org.dpopt.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpopt.bench.BenchSuite;
import org.dpopt.bench.BenchSuites;
import org.dpopt.linalg.Checks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code dpopt bench --suite NAME}: CSV + PNG per suite, a summary table on stdout. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Run a benchmark suite (CSV + PNG).")
final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--suite", required = true) String suite;
    @Option(names = "--out", defaultValue = "bench-results") Path out;
    @Option(names = "--json") boolean json;
    @Option(names = "--quick", description = "Smaller sizes (for smoke tests).") boolean quick;
    @Option(names = "--progress", description = "Progress messages on stderr even when it is not a terminal.")
    boolean progress;
    @Option(names = "--quiet", description = "No progress messages.") boolean quiet;

    @Override
    public Integer call() throws Exception {
        BenchSuite s = BenchSuites.all().get(suite);
        if (s == null) {
            throw Checks.fail("--suite", "one of " + BenchSuites.all().keySet(), suite);
        }
        if (java.nio.file.Files.exists(out) && !java.nio.file.Files.isDirectory(out)) {
            throw Checks.fail("--out", "a directory", out);
        }
        try {
            java.nio.file.Files.createDirectories(out);
        } catch (java.io.IOException e) {
            throw Checks.fail("--out", "a directory that can be created", out + " (" + e.getMessage() + ")");
        }
        if (progress && quiet) {
            throw Checks.fail("--progress", "absent with --quiet", true);
        }
        PrintWriter log = ProgressBar.wanted(progress, quiet) ? spec.commandLine().getErr()
                : new PrintWriter(java.io.Writer.nullWriter());
        Map<String, Object> summary = s.run(out, quick, log, new CliTrainRunner());
        PrintWriter o = spec.commandLine().getOut();
        if (json) {
            o.println(Json.write(new java.util.LinkedHashMap<>(summary)));
        } else {
            summary.forEach((k, v) -> o.printf("%-32s %s%n", k, v));
        }
        o.flush();
        return 0;
    }
}
