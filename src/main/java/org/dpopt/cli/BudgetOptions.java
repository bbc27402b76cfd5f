package org.dpopt.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.budget.BudgetFile;
import org.dpopt.budget.BudgetLedger;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.Param;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunPlan;
import picocli.CommandLine.Option;

/**
 * The flags of a run that spends from a budget file: {@code --budget-file F --total-epsilon E
 * --total-delta D}. The totals are fixed when the file is created by its first release; later runs may
 * omit them, and a run that gives other totals is refused (a budget cannot be raised by asking).
 */
final class BudgetOptions {
    @Option(names = "--budget-file", description = "Spend from this privacy budget file (created by the first run): "
            + "the run is refused before training if its release would take the composed total past the budget.")
    Path file;
    @Option(names = "--total-epsilon", description = "Total epsilon of the budget file (required to create it).")
    Double totalEpsilon;
    @Option(names = "--total-delta", description = "Total delta of the budget file (required to create it).")
    Double totalDelta;

    /**
     * True if the run spends from a budget file; checked before any data is read: refuses totals without a
     * file, bad totals, a non-private algorithm, and a file path that is a directory, in a
     * missing directory or one of the inputs, and (for a file not yet created) missing totals or a run budget
     * above them.
     */
    boolean given(AlgorithmSpec alg, PrivacyBudget run, Path... inputs) {
        if (!given()) {
            return false;
        }
        if (!alg.isPrivate()) {
            throw Checks.fail("--budget-file", "absent for " + alg.name() + " (it makes no privacy claim)", file);
        }
        OutputPaths.check("--budget-file", file, inputs);
        if (!Files.exists(file)) {
            // a refusal must write nothing: everything that can refuse the run that creates the file is
            // checked here, before the file's lock is taken (one run of budget (e, d) certifies at most e at d)
            requireTotals();
            if (run.epsilon() > totalEpsilon) {
                throw Checks.fail("--epsilon", "at most --total-epsilon " + totalEpsilon + " (the budget file "
                        + file + " is new)", run.epsilon());
            }
            if (run.delta() > totalDelta) {
                throw Checks.fail("--delta", "at most --total-delta " + totalDelta + " (the budget file "
                        + file + " is new)", run.delta());
            }
        }
        return true;
    }

    private boolean given() {
        if (file == null) {
            if (totalEpsilon != null || totalDelta != null) {
                throw Checks.fail(totalEpsilon != null ? "--total-epsilon" : "--total-delta",
                        "absent without --budget-file", totalEpsilon != null ? totalEpsilon : totalDelta);
            }
            return false;
        }
        if (totalEpsilon != null) {
            Checks.finite("--total-epsilon", Checks.epsilon("--total-epsilon", totalEpsilon));
        }
        if (totalDelta != null) {
            Checks.delta("--total-delta", totalDelta);
        }
        return true;
    }

    /**
     * Locks the budget file and checks that the planned release fits; the returned hold must be closed.
     *
     * @param release what is released, for the ledger (one line)
     */
    Hold reserve(RunPlan plan, String release) {
        BudgetFile.Session s = BudgetFile.open(file);
        try {
            BudgetLedger ledger = s.ledger().map(this::sameTotals).orElseGet(() -> create(plan));
            double p = failureProbability(plan);
            BudgetLedger.Entry planned = BudgetLedger.Entry.of(release, plan.report(), p, Instant.now());
            ledger.require(planned, plan.relation());
            return new Hold(s, ledger, release, p);
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /** The plan's public failure probability p (a solver that may fail), or 0. */
    private static double failureProbability(RunPlan plan) {
        return plan.parameters().has(Param.FAILURE_PROBABILITY) ? plan.parameters().real(Param.FAILURE_PROBABILITY)
                : 0;
    }

    private BudgetLedger sameTotals(BudgetLedger l) {
        if (totalEpsilon != null && totalEpsilon != l.totalEpsilon()) {
            throw Checks.fail("--total-epsilon", "the budget file's total " + l.totalEpsilon() + " (or absent)",
                    totalEpsilon);
        }
        if (totalDelta != null && totalDelta != l.totalDelta()) {
            throw Checks.fail("--total-delta", "the budget file's total " + l.totalDelta() + " (or absent)", totalDelta);
        }
        return l;
    }

    private BudgetLedger create(RunPlan plan) {
        requireTotals();
        return BudgetLedger.empty(totalEpsilon, totalDelta, plan.relation());
    }

    /** Refuses a new budget file without both totals. */
    private void requireTotals() {
        if (totalEpsilon == null) {
            throw Checks.fail("--total-epsilon", "given to create the budget file " + file, "absent");
        }
        if (totalDelta == null) {
            throw Checks.fail("--total-delta", "given to create the budget file " + file, "absent");
        }
    }

    /** A locked budget file whose planned release fits. */
    static final class Hold implements AutoCloseable {
        private final BudgetFile.Session session;
        private final BudgetLedger ledger;
        private final String release;
        private final double failureProbability;

        private Hold(BudgetFile.Session session, BudgetLedger ledger, String release, double failureProbability) {
            this.session = session;
            this.ledger = ledger;
            this.release = release;
            this.failureProbability = failureProbability;
        }

        /** Records the finished run's release (before anything is published); returns the new ledger. */
        BudgetLedger commit(PrivacyReport report) {
            BudgetLedger next = ledger.record(BudgetLedger.Entry.of(release, report, failureProbability, Instant.now()), report.relation());
            session.write(next);
            return next;
        }

        @Override
        public void close() {
            session.close();
        }
    }
}
