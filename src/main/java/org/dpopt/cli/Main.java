package org.dpopt.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code dpopt} command. Exit code 0 on success, 2 on bad arguments or bad input (one line on
 * stderr naming the parameter and the bound it broke), 1 on internal errors.
 */
@Command(name = "dpopt", mixinStandardHelpOptions = true, version = "dpopt 0.1.0",
        description = "Differentially private stochastic optimization.",
        subcommands = {DemoCommand.class, TrainCommand.class, PredictCommand.class, AccountCommand.class,
            BenchCommand.class, AuditCommand.class})
public final class Main implements Runnable {

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    /** Builds the configured command line (used by tests). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        Flag.addAll(cl.getSubcommands().get("train").getCommandSpec());
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("dpopt: " + oneLine(ex.getMessage()));
            err.flush();
            return 2;
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            PrintWriter err = cmd.getErr();
            if (ex instanceof IllegalArgumentException || ex instanceof java.io.UncheckedIOException) {
                err.println("dpopt: " + oneLine(ex.getMessage()));
                err.flush();
                return 2;
            }
            err.println("dpopt: internal error: " + ex);
            ex.printStackTrace(err);
            err.flush();
            return 1;
        });
        return cl;
    }

    static String oneLine(String s) {
        return s == null ? "error" : s.replace('\n', ' ').strip();
    }

    /** Entry point. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
