package org.dpopt.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The {@code dpopt} command. Exit code 0 on success; 2 on bad arguments or bad input, with exactly one
 * line {@code dpopt: <name> must be <condition> but was <value>} on stderr and no stack trace; 1 on
 * internal errors ({@code dpopt: internal error: …}, then the stack trace). With {@code --json} an
 * error additionally prints exactly one JSON object {@code {"error": "<that line>", "parameter":
 * "<name or null>"}} on stdout. This holds for every subcommand and for picocli's own parse errors
 * (unknown option, missing or malformed value), which are rephrased in the same format.
 */
@Command(name = "dpopt", mixinStandardHelpOptions = true, version = "dpopt 0.1.0",
        description = "Differentially private stochastic optimization.",
        subcommands = {DemoCommand.class, TrainCommand.class, PredictCommand.class, AccountCommand.class,
            BenchCommand.class, AuditCommand.class, BudgetCommand.class})
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
            String[] np = parseFailure(ex);
            return fail(ex.getCommandLine(), args, np[0], np[1], 2, null);
        });
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            String[] args = parsed == null ? new String[0] : parsed.originalArgs().toArray(new String[0]);
            if (ex instanceof IllegalArgumentException || ex instanceof UncheckedIOException) {
                String msg = asFlag(cmd, oneLine(ex.getMessage()));
                return fail(cmd, args, msg, parameterOf(msg), 2, null);
            }
            return fail(cmd, args, "internal error: " + oneLine(String.valueOf(ex)), null, 1, ex);
        });
        return cl;
    }

    /** Prints the one-line message (and the JSON object with --json); returns the exit code. */
    private static int fail(CommandLine cmd, String[] args, String message, String parameter, int code, Throwable bug) {
        String line = "dpopt: " + message;
        PrintWriter err = cmd.getErr();
        err.println(line);
        if (bug != null) {
            bug.printStackTrace(err);
        }
        err.flush();
        if (Arrays.asList(args).contains("--json")) {
            PrintWriter out = cmd.getOut();
            out.println(Json.error(line, parameter));
            out.flush();
        }
        return code;
    }

    /**
     * A library message about a parameter the user gave as a flag, named by that flag: {@code batchSize must
     * be …} becomes {@code --batch-size must be …} when the command has a {@code --batch-size} option.
     */
    static String asFlag(CommandLine cmd, String message) {
        String name = parameterOf(message);
        if (name == null || !name.matches("[a-z][A-Za-z0-9]*")) {
            return message;
        }
        String flag = "--" + name.replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT);
        if (cmd.getCommandSpec().findOption(flag) == null) {
            return message;
        }
        return flag + message.substring(name.length());
    }

    /** The name in a {@code "<name> must be …"} message, or null. */
    static String parameterOf(String message) {
        int at = message.indexOf(" must be ");
        return at > 0 ? message.substring(0, at) : null;
    }

    /** {message, parameter} for one of picocli's parse errors, in the house format. */
    static String[] parseFailure(CommandLine.ParameterException ex) {
        String where = qualifiedName(ex.getCommandLine());
        if (ex instanceof CommandLine.UnmatchedArgumentException u) {
            List<String> un = u.getUnmatched();
            String token = un.isEmpty() ? "?" : un.get(0);
            boolean option = token.startsWith("-");
            return new String[] {(option ? "option" : "argument") + " must be one of those of '" + where
                    + "' (see --help) but was " + token, token};
        }
        if (ex instanceof CommandLine.MissingParameterException m) {
            List<ArgSpec> missing = m.getMissing();
            String name = missing == null || missing.isEmpty() ? "argument" : nameOf(missing.get(0));
            boolean option = missing != null && !missing.isEmpty() && missing.get(0).isOption();
            return new String[] {name + " must be " + (option ? "given a value" : "given") + " but was absent", name};
        }
        if (ex instanceof CommandLine.OverwrittenOptionException o) {
            String name = o.getOverwritten() == null ? "option" : nameOf(o.getOverwritten());
            return new String[] {name + " must be given at most once but was given more than once", name};
        }
        ArgSpec spec = ex.getArgSpec();
        if (spec != null) {
            String name = nameOf(spec);
            String value = ex.getValue() == null ? "absent" : ex.getValue();
            return new String[] {name + " must be " + typeOf(spec.type()) + " but was " + value, name};
        }
        return new String[] {"arguments must be well-formed for '" + where + "' but were not: " + oneLine(ex.getMessage()),
            null};
    }

    private static String nameOf(ArgSpec spec) {
        if (spec instanceof OptionSpec o) {
            return o.longestName();
        }
        if (spec instanceof PositionalParamSpec p) {
            String label = p.paramLabel();
            return label.replace("<", "").replace(">", "");
        }
        return "argument";
    }

    private static String typeOf(Class<?> type) {
        if (type == Double.class || type == double.class || type == Float.class || type == float.class) {
            return "a number";
        }
        if (type == Long.class || type == long.class) {
            return "an integer in [" + Long.MIN_VALUE + ", " + Long.MAX_VALUE + "]";
        }
        if (type == Integer.class || type == int.class) {
            return "an integer in [" + Integer.MIN_VALUE + ", " + Integer.MAX_VALUE + "]";
        }
        if (type != null && type.isEnum()) {
            return "one of " + Arrays.toString(type.getEnumConstants());
        }
        return "a valid value";
    }

    private static String qualifiedName(CommandLine cl) {
        StringBuilder sb = new StringBuilder(cl.getCommandName());
        for (CommandLine p = cl.getParent(); p != null; p = p.getParent()) {
            sb.insert(0, p.getCommandName() + " ");
        }
        return sb.toString();
    }

    static String oneLine(String s) {
        return s == null ? "error" : s.replace('\r', ' ').replace('\n', ' ').strip();
    }

    /** Entry point. */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
