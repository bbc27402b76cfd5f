package org.dpopt.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.dpopt.budget.BudgetFile;
import org.dpopt.budget.BudgetLedger;
import org.dpopt.linalg.Checks;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code dpopt budget show FILE}: what a budget file has spent, and on what. */
@Command(name = "budget", mixinStandardHelpOptions = true, subcommands = BudgetCommand.Show.class,
        description = "Privacy budgets across runs (written by dpopt train --budget-file).")
final class BudgetCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        throw Checks.fail("budget subcommand", "show", "absent");
    }

    /** The release's budget summary, in a stable key order. */
    static Map<String, Object> summary(Path file, BudgetLedger l) {
        BudgetLedger.Spending s = l.spent();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", file.toString());
        m.put("total_epsilon", l.totalEpsilon());
        m.put("total_delta", l.totalDelta());
        m.put("relation", l.relation().toString());
        Json.putEpsilon(m, "spent_epsilon", s.epsilon());
        m.put("spent_method", s.method());
        m.put("remaining_epsilon", Math.max(0, l.totalEpsilon() - s.epsilon()));
        m.put("releases", l.entries().size());
        return m;
    }

    /** {@code dpopt budget show FILE [--json]}. */
    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show a budget file: totals, what its "
            + "releases spent (composed), and each release.")
    static final class Show implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "FILE", description = "The budget file.")
        Path file;
        @Mixin
        Output output;

        @Override
        public Integer call() {
            BudgetLedger l = BudgetFile.read(file);
            Map<String, Object> out = summary(file, l);
            List<Map<String, Object>> rows = new ArrayList<>();
            for (BudgetLedger.Entry e : l.entries()) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("time", e.time().toString());
                r.put("release", e.release());
                r.put("epsilon", e.epsilon());
                r.put("delta", e.delta());
                r.put("accountant", e.accountant());
                r.put("event", e.event().describe());
                rows.add(r);
            }
            if (output.json) {
                out.put("releases", rows);
            }
            output.print(out, o -> text(o, out, l));
            return 0;
        }

        private static void text(PrintWriter o, Map<String, Object> m, BudgetLedger l) {
            o.printf("budget file   %s%n", m.get("file"));
            o.printf("total         epsilon %s at delta %s (%s)%n", l.totalEpsilon(), l.totalDelta(), l.relation());
            Object spent = m.get("spent_epsilon");
            o.printf("spent         epsilon %s (%s)%n", spent == null ? "unbounded" : String.format("%.6g", spent),
                    m.get("spent_method"));
            o.printf("remaining     epsilon %.6g%n", m.get("remaining_epsilon"));
            o.printf("releases      %d%n", l.entries().size());
            int k = 0;
            for (BudgetLedger.Entry e : l.entries()) {
                o.printf("  %d. %s  epsilon %.6g at delta %s by %s: %s%n", ++k, e.time(), e.epsilon(), e.delta(),
                        e.accountant(), e.release());
            }
        }
    }
}
