package org.dpopt.optim.core;

import java.util.ArrayList;
import java.util.List;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.NonPrivateEvent;
import org.dpopt.accounting.PrivacyLedger;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.loss.ProblemShape;
import org.dpopt.noise.NoiseSource;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.RunPlan;

/**
 * The privacy side of {@link PrivateRun#finish}: the check that the recorded ledger is the plan's
 * statement, the budget check, the noise implementation's own δ, and the notes a run adds to its report.
 */
final class RunReport {

    /** The run's ledger and its report. */
    record Closed(DpEvent ledger, PrivacyReport report) {
    }

    private RunReport() {
    }

    /**
     * Builds the ledger and the report of a finished run.
     *
     * @param recorded the run's (outermost) ledger
     * @param notes the notes the optimizer added during the run
     * @throws IllegalStateException if the ledger differs from the plan's statement or a calibrated
     *         plan spent more than its budget (both are bugs)
     */
    static Closed close(RunPlan plan, PrivacyLedger recorded, NoiseSource noise, Mutation mutation,
            List<String> notes) {
        PrivacyBudget budget = plan.budget();
        DpEvent ledger;
        PrivacyReport report;
        if (plan.accountant() == null) {
            ledger = NonPrivateEvent.INSTANCE;
            report = PrivacyReport.nonPrivate(Double.NaN);
        } else {
            ledger = recorded.build();
            if (!ledger.equals(plan.statement())) {
                throw new IllegalStateException("the recorded ledger " + ledger.describe()
                        + " differs from the plan's statement " + plan.statement().describe());
            }
            report = plan.report(); // the ledger equals the statement, so its report is the plan's
            report = chargeImplementation(plan, noise, report, budget.delta());
            if (plan.budgetBinding() && report.epsilon() > budget.epsilon() * (1 + PrivateRun.BUDGET_TOLERANCE)) {
                throw new IllegalStateException(plan.algorithm() + " spent epsilon " + report.epsilon()
                        + " above the budget " + budget.epsilon());
            }
        }
        for (String s : runNotes(plan, noise, mutation, notes)) {
            if (!report.notes().contains(s)) { // once: a stage's notes may repeat the plan's or this run's
                report = report.withNote(s);
            }
        }
        return new Closed(ledger, report);
    }

    /**
     * Adds the noise implementation's own δ (secure samplers: a bounded, astronomically small
     * probability of refusing a draw) to the report. When it is below the resolution of δ the report's
     * ε stands and the note states the bound; otherwise ε is recomputed at δ minus the charge.
     */
    private static PrivacyReport chargeImplementation(RunPlan plan, NoiseSource noise, PrivacyReport report,
            double delta) {
        double charge = noise.implementationDelta(report.epsilon());
        if (!(charge > 0)) {
            return report;
        }
        if (delta - charge == delta) {
            return report.withNote("secure noise: implementation delta <= " + charge
                    + " (included; below the resolution of delta)");
        }
        if (!(charge < delta)) {
            throw new IllegalStateException("noise implementation delta " + charge + " exceeds delta " + delta);
        }
        PrivacyReport inner = plan.accountant().report(plan.statement(), delta - charge);
        return new PrivacyReport(inner.epsilon(), inner.epsilonLower(), delta, inner.accountant(), inner.relation(),
                inner.event(), inner.bound(), inner.notes()).withNote("secure noise: implementation delta "
                + charge + " included");
    }

    private static List<String> runNotes(RunPlan plan, NoiseSource noise, Mutation mutation, List<String> notes) {
        List<String> out = new ArrayList<>();
        if (mutation != Mutation.NONE) {
            out.add("MUTANT " + mutation.cliName() + ": deliberately broken for auditing; this report certifies "
                    + "nothing");
        }
        if (!noise.isSecure()) {
            out.add("noise " + noise.description());
        }
        if (plan.accountant() != null && plan.relation() == NeighboringRelation.ADD_OR_REMOVE_ONE) {
            ProblemShape s = plan.shape();
            out.add(s.sizeDeclared()
                    ? "dataset size n = " + s.size() + " declared public in advance; the actual number of rows is not "
                            + "released"
                    : "the dataset size n = " + s.size() + " is treated as public (declare it in advance to keep "
                            + "the actual size private)");
        }
        out.addAll(notes);
        return out;
    }
}
