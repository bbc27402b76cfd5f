package org.dpopt.bench;

import java.util.List;
import java.util.Map;

/**
 * Runs {@code dpopt train} in this JVM, for suites that measure what a user of the command line gets:
 * the same argument parsing, defaults, planning and release as the command itself. The command line
 * supplies it ({@code dpopt bench} passes one), so this package stays a client of the public API.
 */
public interface TrainRunner {

    /** The names of the private algorithms {@code dpopt train} offers, in help order. */
    List<String> classifiers();

    /**
     * Runs {@code dpopt train} with these arguments (after the subcommand name) and its JSON output.
     *
     * @param args the arguments, e.g. {@code --algorithm dp-sgd --data f.csv ...} (no {@code --json})
     * @return the JSON release as a map (numbers as {@link Number})
     * @throws IllegalStateException when the command exits with a non-zero code (its stderr in the message)
     */
    Map<String, Object> train(List<String> args);
}
