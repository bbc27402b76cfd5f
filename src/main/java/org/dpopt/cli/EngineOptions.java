package org.dpopt.cli;

import org.dpopt.linalg.Checks;
import picocli.CommandLine.Option;

/** Where {@code dpopt train} runs (a picocli mixin): in this JVM, or its data-dependent sums on Spark. */
final class EngineOptions {
    @Option(names = "--engine", defaultValue = "memory", description = "memory (default) or spark: the data-dependent "
            + "sums on Spark executors, noise and accounting on the driver (dp-sgd, noisy-frank-wolfe, "
            + "objective-perturbation, objective-perturbation-svrg).")
    String engine;
    @Option(names = "--master", description = "Spark master with --engine spark (default: spark-submit's, else "
            + "local[*]).")
    String master;

    /**
     * True for --engine spark; refuses an unknown engine and the Spark-only flags in memory.
     *
     * @param format the --format given (parquet needs Spark)
     */
    boolean onSpark(String format) {
        switch (engine) {
            case "spark":
                return true;
            case "memory":
                if (master != null) {
                    throw Checks.fail("--master", "absent with --engine memory", master);
                }
                if ("parquet".equals(format)) {
                    throw Checks.fail("--format", "csv or libsvm with --engine memory (parquet needs --engine spark)",
                            format);
                }
                return false;
            default:
                throw Checks.fail("--engine", "memory or spark", engine);
        }
    }
}
