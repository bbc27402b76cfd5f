package org.dpopt.cli;

import java.io.PrintWriter;
import java.util.Map;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * How a command prints its result (a picocli mixin): with {@code --json} exactly one JSON object on
 * stdout, else its text form; on the streams of the command it is mixed into.
 */
final class Output {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;
    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    /** The command's stdout. */
    PrintWriter out() {
        return mixee.commandLine().getOut();
    }

    /** The command's stderr. */
    PrintWriter err() {
        return mixee.commandLine().getErr();
    }

    /** Prints the object as JSON with --json, else as {@code text} writes it; flushes. */
    void print(Map<String, Object> object, Consumer<PrintWriter> text) {
        PrintWriter o = out();
        if (json) {
            o.println(Json.write(object));
        } else {
            text.accept(o);
        }
        o.flush();
    }

    /** The plain text form: one line per entry that is not null, the key left-aligned in {@code width} columns. */
    static void table(PrintWriter o, Map<String, Object> m, int width) {
        String format = "%-" + width + "s %s%n";
        for (Map.Entry<String, Object> e : m.entrySet()) {
            if (e.getValue() != null) {
                o.printf(format, e.getKey(), e.getValue());
            }
        }
    }
}
