package org.dpopt.optim.mirror;

import java.util.Collections;
import org.dpopt.accounting.DpEvent;
import org.dpopt.accounting.ParallelComposedEvent;
import org.dpopt.geometry.MirrorMap;

/**
 * A planned proximally guided mirror-descent run, from public quantities only.
 *
 * @param map the mirror map
 * @param radius D
 * @param lipschitz C, the per-example clip norm
 * @param rho ρ used
 * @param rounds T_out
 * @param phases K, the 𝒜_sc phases per round
 * @param phase the plan of every part
 * @param lastIterate the practical rule: origin start, output w_{T_out+1}, R₀ capped at 2D (else random start,
 *                    w_{t*} and R₀ = 2C/ρ)
 */
record PgmdSchedule(MirrorMap map, double radius, double lipschitz, double rho, int rounds, int phases,
        LocalizedMirrorDescent.PhasePlan phase, boolean lastIterate) {

    /**
     * R₀, the initial localization radius of every 𝒜_sc call: 2C/ρ (the distance within which the proximal
     * subproblem's minimizer lies) for the paper preset; min(2C/ρ, 2D) for the practical one, since the
     * anchor and every point of W lie in the ball of radius D. With a small ρ, 2C/ρ is far larger than W
     * and the steps R₀/(M√T) overshoot it. A public constant either way; it sets step sizes, not privacy.
     */
    double localizationRadius() {
        double r0 = 2 * lipschitz / rho;
        return lastIterate ? Math.min(r0, 2 * radius) : r0;
    }

    /** T_out·K disjoint parts. */
    int parts() {
        return rounds * phases;
    }

    /** {@code Parallel[phase event × T_out K]}. */
    DpEvent statement() {
        return new ParallelComposedEvent(Collections.nCopies(parts(), phase.event()));
    }
}
