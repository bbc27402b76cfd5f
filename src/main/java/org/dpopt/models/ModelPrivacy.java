package org.dpopt.models;

import java.util.List;
import org.dpopt.accounting.PrivacyReport;
import org.dpopt.linalg.Checks;
import org.dpopt.noise.NoiseSource;

/**
 * The privacy statement a model carries: the accountant's certificate for the releases that produced
 * the weights, and how the noise was drawn. It is the {@link PrivacyReport} of the training run, kept
 * as plain values so that it survives a model file.
 *
 * <p>A model is private ({@link #isPrivate()}) when ε is finite and its noise was secure. A seeded
 * (research-mode) model has the same certificate on paper, but whoever knows the seed can replay the
 * noise: it is not private unless the seed was secret and random.
 *
 * @param epsilon the certified ε (an upper bound unless {@code bound} is {@code "lower"}); +∞ for a
 *                non-private model
 * @param epsilonLower an optimistic lower bound on the true ε, NaN if the accountant has none
 * @param delta δ (NaN for a non-private model)
 * @param accountant the accountant's name
 * @param relation the neighbouring relation (e.g. {@code ADD_OR_REMOVE_ONE})
 * @param bound {@code "upper"} or {@code "lower"}, what {@code epsilon} is
 * @param event the accounted event, described
 * @param notes the report's assumptions and warnings
 * @param noise {@code NoiseSource.SECURE_DESCRIPTION} or the seeded-mode warning
 */
public record ModelPrivacy(double epsilon, double epsilonLower, double delta, String accountant, String relation,
        String bound, String event, List<String> notes, String noise) {

    /** Validates and copies. */
    public ModelPrivacy {
        if (!(epsilon >= 0)) {
            throw Checks.fail("epsilon", "non-negative (or +infinity)", epsilon);
        }
        Checks.allNotNull("accountant", accountant, "relation", relation, "bound", bound, "event", event,
                "noise", noise);
        notes = List.copyOf(Checks.notNull("notes", notes));
    }

    /** The statement of a run's report and noise mode. */
    public static ModelPrivacy of(PrivacyReport report, String noise) {
        Checks.notNull("report", report);
        return new ModelPrivacy(report.epsilon(), report.epsilonLower(), report.delta(), report.accountant(),
                String.valueOf(report.relation()), report.bound().key(), report.event().describe(),
                report.notes(), noise);
    }

    /** A copy with more notes. */
    public ModelPrivacy withNotes(List<String> more) {
        List<String> all = new java.util.ArrayList<>(notes);
        all.addAll(Checks.notNull("notes", more));
        return new ModelPrivacy(epsilon, epsilonLower, delta, accountant, relation, bound, event, all, noise);
    }

    /** True if the noise was drawn from the secure generator. */
    public boolean secureNoise() {
        return NoiseSource.SECURE_DESCRIPTION.equals(noise);
    }

    /** True if ε is finite and the noise was secure: the weights are covered by this statement. */
    public boolean isPrivate() {
        return Double.isFinite(epsilon) && secureNoise();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append("(ε = ").append(Double.isInfinite(epsilon) ? "∞" : String.format("%.4f", epsilon));
        if (!Double.isNaN(epsilonLower)) {
            sb.append(", optimistic ε ≥ ").append(String.format("%.4f", epsilonLower));
        }
        sb.append(", δ = ").append(delta).append(")-DP");
        if ("lower".equals(bound)) {
            sb.append(" [LOWER BOUND ONLY]");
        }
        sb.append(" by ").append(accountant).append(", ").append(relation).append("; ").append(event);
        for (String s : notes) {
            sb.append("; ").append(s);
        }
        return sb.toString();
    }
}
