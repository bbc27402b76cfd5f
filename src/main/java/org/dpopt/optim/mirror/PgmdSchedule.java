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
 * @param lastIterate the practical rule: origin start, output w_{T_out+1} (else random start and w_{t*})
 */
record PgmdSchedule(MirrorMap map, double radius, double lipschitz, double rho, int rounds, int phases,
        LocalizedMirrorDescent.PhasePlan phase, boolean lastIterate) {

    /** T_out·K disjoint parts. */
    int parts() {
        return rounds * phases;
    }

    /** {@code Parallel[phase event × T_out K]}. */
    DpEvent statement() {
        return new ParallelComposedEvent(Collections.nCopies(parts(), phase.event()));
    }
}
