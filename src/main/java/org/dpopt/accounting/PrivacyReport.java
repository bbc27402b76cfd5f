package org.dpopt.accounting;

import java.util.List;
import org.dpopt.linalg.Checks;

/**
 * What a run spent and what was assumed.
 *
 * @param epsilon the certified ε at {@code delta} (an upper bound; +∞ for non-private runs). When
 *                {@code bound} is {@link Bound#LOWER} no valid upper bound is known to this accountant and
 *                this value is <em>only</em> a lower bound.
 * @param epsilonLower an optimistic lower bound on the true ε, or NaN if the method has none
 * @param delta δ
 * @param accountant name of the accountant
 * @param relation neighbouring relation
 * @param event the accounted event
 * @param bound {@link Bound#UPPER} (epsilon is a valid guarantee) or {@link Bound#LOWER} (optimistic only)
 * @param notes warnings and assumptions (e.g. "optimal RDP order at the grid edge")
 */
public record PrivacyReport(double epsilon, double epsilonLower, double delta, String accountant,
        NeighboringRelation relation, DpEvent event, Bound bound, List<String> notes) {

    /** Validates and copies. */
    public PrivacyReport {
        if (!(epsilon >= 0)) {
            throw Checks.fail("epsilon", "non-negative", epsilon);
        }
        Checks.notNull("accountant", accountant);
        Checks.notNull("relation", relation);
        Checks.notNull("event", event);
        Checks.notNull("bound", bound);
        notes = List.copyOf(notes);
    }

    /** A report for a non-private release. */
    public static PrivacyReport nonPrivate(double delta) {
        return new PrivacyReport(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, delta, "none",
                NeighboringRelation.ADD_OR_REMOVE_ONE, NonPrivateEvent.INSTANCE, Bound.UPPER,
                List.of("no privacy guarantee"));
    }

    /** A copy with an extra note. */
    public PrivacyReport withNote(String note) {
        List<String> n = new java.util.ArrayList<>(notes);
        n.add(note);
        return new PrivacyReport(epsilon, epsilonLower, delta, accountant, relation, event, bound, n);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append("(ε = ").append(fmt(epsilon));
        if (!Double.isNaN(epsilonLower)) {
            sb.append(", optimistic ε ≥ ").append(fmt(epsilonLower));
        }
        sb.append(", δ = ").append(delta).append(")-DP");
        if (bound == Bound.LOWER) {
            sb.append(" [LOWER BOUND ONLY]");
        }
        sb.append(" by ").append(accountant).append(", ").append(relation).append("; ")
                .append(event.describe());
        for (String s : notes) {
            sb.append("; ").append(s);
        }
        return sb.toString();
    }

    private static String fmt(double v) {
        return Double.isInfinite(v) ? "∞" : String.format("%.4f", v);
    }
}
