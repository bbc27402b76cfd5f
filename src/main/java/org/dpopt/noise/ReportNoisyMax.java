package org.dpopt.noise;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.EpsilonDeltaEvent;
import org.dpopt.accounting.NeighboringRelation;
import org.dpopt.linalg.Checks;

/**
 * Report-Noisy-Max with Laplace noise (C. Dwork, A. Roth, "The Algorithmic Foundations of Differential
 * Privacy", 2014, §3.3): given J scores s_j(S), each of sensitivity at most Δ under the stated
 * neighbouring relation, release only {@code argmax_j (s_j(S) + Z_j)} with Z_j ~ Lap(b) i.i.d.
 *
 * <p>Privacy: with {@code b = 2Δ/ε0} the release is ε0-DP for arbitrary (non-monotone) score changes
 * (fix all other noises: the winning threshold moves by ≤ Δ and the candidate's own score by ≤ Δ, so
 * its noise must move by ≤ 2Δ, costing a density ratio ≤ e^{ε0}). With {@code monotone = true} — all
 * scores move in the same direction between neighbours, as for counting queries — {@code b = Δ/ε0}
 * suffices. Each call is the event {@code EpsilonDeltaEvent(ε0, 0)} (pure ε0-DP).
 *
 * <p>Cost: O(J) per call, one pass, one 64-bit draw and one logarithm per candidate, no allocation, no
 * sorting. Only the
 * index is released; the noisy maximum value is not.
 */
public final class ReportNoisyMax {
    private final double sensitivity;
    private final double epsilon;
    private final boolean monotone;
    private final NeighboringRelation relation;
    private final double scale;

    /**
     * @param sensitivity Δ &gt; 0: bound on |s_j(S) − s_j(S′)| for every j and neighbours S, S′ (public)
     * @param epsilon ε0 &gt; 0 per call
     * @param monotone true only if all scores move in the same direction between neighbours
     * @param relation the neighbouring relation Δ refers to
     */
    public ReportNoisyMax(double sensitivity, double epsilon, boolean monotone, NeighboringRelation relation) {
        this.sensitivity = Checks.positive("sensitivity", sensitivity);
        this.epsilon = Checks.positive("epsilon", epsilon);
        Checks.finite("sensitivity", sensitivity);
        Checks.finite("epsilon", epsilon);
        this.monotone = monotone;
        this.relation = Checks.notNull("relation", relation);
        this.scale = (monotone ? 1.0 : 2.0) * sensitivity / epsilon;
    }

    /** The Laplace scale b = 2Δ/ε0 (Δ/ε0 if monotone). */
    public double scale() {
        return scale;
    }

    /** Δ. */
    public double sensitivity() {
        return sensitivity;
    }

    /** ε0 per call. */
    public double epsilon() {
        return epsilon;
    }

    /** Whether the monotone scale is used. */
    public boolean monotone() {
        return monotone;
    }

    /** The neighbouring relation. */
    public NeighboringRelation relation() {
        return relation;
    }

    /** The event of one call: pure ε0-DP. */
    public DpEvent event() {
        return new EpsilonDeltaEvent(epsilon, 0.0);
    }

    /**
     * The index of the largest noisy score among scores[0..count). Not modified: scores.
     *
     * @param scores the scores (length ≥ count)
     * @param count J ≥ 1
     * @param rng the randomness
     */
    public int argmax(double[] scores, int count, UniformRandomProvider rng) {
        return select(scores, count, rng, 1.0);
    }

    /** The index of the smallest noisy score (report-noisy-min: argmax of −s_j). Not modified: scores. */
    public int argmin(double[] scores, int count, UniformRandomProvider rng) {
        return select(scores, count, rng, -1.0);
    }

    int select(double[] scores, int count, UniformRandomProvider rng, double sign) {
        if (count < 1 || count > scores.length) {
            throw Checks.fail("count", "in [1, " + scores.length + "]", count);
        }
        int best = 0;
        double bestValue = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < count; j++) {
            // Lap(b) = ±b·E with E ~ Exp(1) and an independent fair sign: one 64-bit draw gives both
            // (bit 0 the sign, the top 53 bits U ∈ (0, 1], E = −ln U)
            long bits = rng.nextLong();
            double u = ((bits >>> 11) + 1) * 0x1.0p-53;
            double z = -Math.log(u);
            double v = sign * scores[j] + scale * ((bits & 1L) == 0 ? z : -z);
            if (v > bestValue) {
                bestValue = v;
                best = j;
            }
        }
        return best;
    }
}
