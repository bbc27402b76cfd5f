package org.dpopt.optim.mirror;

import org.dpopt.optim.PrivacyBudget;

/**
 * The paper preset's outer rounds T_out and inner phases K of {@link ProximallyGuidedMirrorDescent}:
 * the set values, else the balance of Bassily, Guzmán and Menart's Theorem 20 (NeurIPS 2021,
 * arXiv:2107.05585) between the statistical and the privacy term, then fewer rounds until each of the
 * T_out·K parts holds at least {@link ProximallyGuidedMirrorDescent#MIN_PART_SIZE} records. Public
 * constants only.
 */
final class PgmdRounds {
    private PgmdRounds() {
    }

    /**
     * {T_out, K} for n records in dimension d.
     *
     * @param rounds the set T_out, or 0 for the rule
     * @param innerPhases the set K, or 0 for {@link #defaultPhases}
     * @param kappa the mirror map's strong-convexity constant κ
     * @param c the Lipschitz constant C
     * @param r the weak-convexity parameter ρ of the proximal term
     * @param radius the domain's radius D
     */
    static int[] of(int rounds, int innerPhases, int n, int d, double kappa, double c, double r, double radius,
            PrivacyBudget budget) {
        int tOut;
        if (rounds > 0) {
            tOut = rounds;
        } else {
            double gapBound = 2 * c * radius;
            double stat = Math.sqrt(r * gapBound * n / (c * c * kappa));
            double eps = budget.epsilon();
            double priv = Math.cbrt(r * gapBound * eps * eps * n * (double) n
                    / (c * c * kappa * d * Math.log(1 / budget.delta())));
            tOut = (int) Math.max(1, Math.floor(Math.min(stat, priv)));
        }
        int k = phases(innerPhases, n, tOut);
        int min = ProximallyGuidedMirrorDescent.MIN_PART_SIZE;
        if (rounds <= 0 && n / ((double) tOut * k) < min) {
            tOut = Math.max(1, n / (k * min));
            k = phases(innerPhases, n, tOut);
            while (tOut > 1 && n / ((double) tOut * k) < min) { // fewer rounds may need more phases
                tOut--;
                k = phases(innerPhases, n, tOut);
            }
        }
        return new int[] {tOut, k};
    }

    /** K: as set, else {@link #defaultPhases} for rounds of n/T_out records. */
    private static int phases(int innerPhases, int n, int tOut) {
        return innerPhases > 0 ? innerPhases : defaultPhases(n / (double) tOut);
    }

    /** K = ⌈log₂ log₂ m⌉ + 1 for a round of m records (at least 2). */
    static int defaultPhases(double m) {
        double l = Math.log(Math.max(m, 4)) / Math.log(2);
        return Math.max(2, (int) Math.ceil(Math.log(l) / Math.log(2)) + 1);
    }
}
