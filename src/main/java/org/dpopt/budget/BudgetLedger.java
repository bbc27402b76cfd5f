package org.dpopt.budget;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.dpopt.accounting.Bound;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.linalg.Checks;

/**
 * A privacy budget shared by every release on one dataset: the total (ε, δ), the neighbouring relation,
 * and the releases made so far, each with its recorded event. Immutable: {@link #record} returns a new
 * ledger and refuses a release that would take the composed total past the budget.
 *
 * <p>What has been spent is the adaptive composition of all recorded events at the total δ, bounded by
 * the tightest of the accountants that support it and basic composition (see {@link #spent()}). A
 * release is admitted only if {@code spentWith(event) ≤ total ε}; so every sequence of admitted releases
 * is (total ε, total δ)-DP with respect to the ledger's relation, including when each run is chosen after
 * seeing the previous ones' outputs.
 */
public final class BudgetLedger {
    private final double totalEpsilon;
    private final double totalDelta;
    private final NeighboringRelation relation;
    private final List<Entry> entries;

    /**
     * One release.
     *
     * @param time when it was recorded
     * @param release what was released, e.g. {@code "train dp-sgd --data train.csv"} (one line)
     * @param epsilon the release's own certified ε (an upper bound) at {@code delta}
     * @param delta the release's own δ
     * @param accountant the accountant that certified it
     * @param event the release's event, which the ledger composes
     * @param failureProbability p ≥ 0 when the release equals its event's mechanism except on an event of
     *                           probability at most p on every dataset (a solver that may fail): its δ
     *                           includes (1 + e^ε)p, which the event does not carry, so the ledger charges
     *                           it again at the composed ε; 0 otherwise
     */
    public record Entry(Instant time, String release, double epsilon, double delta, String accountant,
            DpEvent event, double failureProbability) {

        /** A release whose event is its whole mechanism (no failure probability). */
        public Entry(Instant time, String release, double epsilon, double delta, String accountant, DpEvent event) {
            this(time, release, epsilon, delta, accountant, event, 0);
        }

        /** Validates. */
        public Entry {
            if (!(failureProbability >= 0 && failureProbability < 1)) {
                throw Checks.fail("failure probability", "in [0, 1)", failureProbability);
            }
            Checks.notNull("time", time);
            Checks.notNull("release", release);
            if (release.indexOf('\n') >= 0 || release.indexOf('\r') >= 0) {
                throw Checks.fail("release", "one line", release);
            }
            Checks.nonNegative("epsilon", epsilon);
            Checks.inRange("delta", delta, 0, 1);
            Checks.notNull("accountant", accountant);
            Checks.notNull("event", event);
        }

        /**
         * The entry of a run's report (its event, ε, δ and accountant).
         *
         * @throws IllegalArgumentException if the report is only a lower bound or ε is infinite
         */
        public static Entry of(String release, PrivacyReport report, Instant time) {
            return of(release, report, 0, time);
        }

        /**
         * As {@link #of(String, PrivacyReport, Instant)}, for a release with a failure probability p (see
         * the record).
         */
        public static Entry of(String release, PrivacyReport report, double failureProbability, Instant time) {
            Checks.notNull("report", report);
            if (report.bound() != Bound.UPPER) {
                throw Checks.fail("privacy report of " + release, "an upper bound to be recorded in a budget",
                        report.bound() + " bound");
            }
            if (!Double.isFinite(report.epsilon())) {
                throw Checks.fail("epsilon of " + release, "finite to be recorded in a budget", report.epsilon());
            }
            return new Entry(time, release, report.epsilon(), report.delta(), report.accountant(), report.event(),
                    failureProbability);
        }
    }

    /**
     * What a ledger's releases spend.
     *
     * @param epsilon an upper bound on the composed ε at {@code delta} (+∞ if none is known)
     * @param delta the ledger's total δ
     * @param method how the bound was obtained
     */
    public record Spending(double epsilon, double delta, String method) {
    }

    private BudgetLedger(double totalEpsilon, double totalDelta, NeighboringRelation relation, List<Entry> entries) {
        this.totalEpsilon = totalEpsilon;
        this.totalDelta = totalDelta;
        this.relation = relation;
        this.entries = List.copyOf(entries);
    }

    /**
     * An empty ledger.
     *
     * @param totalEpsilon the total ε, positive and finite
     * @param totalDelta the total δ in (0, 1)
     * @param relation the neighbouring relation every release must be stated under
     */
    public static BudgetLedger empty(double totalEpsilon, double totalDelta, NeighboringRelation relation) {
        Checks.finite("total epsilon", Checks.epsilon("total epsilon", totalEpsilon));
        Checks.delta("total delta", totalDelta);
        return new BudgetLedger(totalEpsilon, totalDelta, Checks.notNull("relation", relation), List.of());
    }

    /** A ledger with these entries, without the budget check (for reading a file). */
    static BudgetLedger of(double totalEpsilon, double totalDelta, NeighboringRelation relation, List<Entry> entries) {
        BudgetLedger l = empty(totalEpsilon, totalDelta, relation);
        return new BudgetLedger(l.totalEpsilon, l.totalDelta, l.relation, entries);
    }

    /** The total ε. */
    public double totalEpsilon() {
        return totalEpsilon;
    }

    /** The total δ. */
    public double totalDelta() {
        return totalDelta;
    }

    /** The neighbouring relation of every release. */
    public NeighboringRelation relation() {
        return relation;
    }

    /** The releases, oldest first (unmodifiable). */
    public List<Entry> entries() {
        return entries;
    }

    /** The composed ε of the recorded releases at the total δ. */
    public Spending spent() {
        return LedgerComposition.spent(relation, entries, totalDelta);
    }

    /** The composed ε if {@code next} were recorded too. */
    public Spending spentWith(Entry next) {
        Checks.notNull("next", next);
        List<Entry> all = new ArrayList<>(entries);
        all.add(next);
        return LedgerComposition.spent(relation, all, totalDelta);
    }

    /**
     * Refuses a release that does not fit: stated under another relation, or composing past the total ε.
     *
     * @param next the release (its ε, δ and event as planned)
     * @param nextRelation the relation its event is stated under
     * @return what would be spent with it
     * @throws IllegalArgumentException naming the budget and the composed ε
     */
    public Spending require(Entry next, NeighboringRelation nextRelation) {
        if (nextRelation != relation) {
            throw Checks.fail("neighbouring relation of " + next.release(), "the budget's " + relation, nextRelation);
        }
        Spending s = spentWith(next);
        if (!(s.epsilon() <= totalEpsilon)) {
            throw Checks.fail("privacy budget", "enough for " + next.release() + " (total epsilon " + totalEpsilon
                    + " at delta " + totalDelta + ", spent " + spent().epsilon() + " by " + entries.size()
                    + " release(s))", "exceeded: the composed epsilon would be " + s.epsilon());
        }
        return s;
    }

    /**
     * This ledger with one more release.
     *
     * @throws IllegalArgumentException as {@link #require}
     */
    public BudgetLedger record(Entry next, NeighboringRelation nextRelation) {
        require(next, nextRelation);
        List<Entry> all = new ArrayList<>(entries);
        all.add(next);
        return new BudgetLedger(totalEpsilon, totalDelta, relation, all);
    }
}
