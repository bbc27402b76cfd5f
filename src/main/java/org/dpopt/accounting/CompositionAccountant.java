package org.dpopt.accounting;

import java.util.Optional;
import org.dpopt.linalg.Checks;

/**
 * What the composition-theorem accountants ({@link BasicCompositionAccountant},
 * {@link AdvancedCompositionAccountant}) share: the relation they were built for, the argument checks,
 * top-level parallel composition (a neighbour changes one part, so the worst part's bound holds) and
 * "unsupported" as "the ε query throws". Subclasses bound a sequential composition.
 */
abstract class CompositionAccountant implements PrivacyAccountant {
    private final NeighboringRelation relation;

    CompositionAccountant(NeighboringRelation relation) {
        this.relation = Checks.notNull("relation", relation);
    }

    @Override
    public final NeighboringRelation relation() {
        return relation;
    }

    @Override
    public final Optional<String> unsupportedReason(DpEvent event) {
        return Compositions.unsupportedReason(() -> epsilon(event, 0.5));
    }

    @Override
    public final double epsilon(DpEvent event, double delta) {
        Checks.notNull("event", event);
        Checks.delta("delta", delta);
        if (event instanceof ParallelComposedEvent par) {
            return Compositions.worstPart(par, s -> epsilon(s, delta));
        }
        return sequentialEpsilon(event, delta);
    }

    @Override
    public final double delta(DpEvent event, double epsilon) {
        Checks.notNull("event", event);
        Compositions.checkEpsilon(epsilon);
        if (event instanceof ParallelComposedEvent par) {
            return Compositions.worstPart(par, s -> delta(s, epsilon));
        }
        return sequentialDelta(event, epsilon);
    }

    /** ε(δ) of an event that is not a parallel composition (δ checked). */
    abstract double sequentialEpsilon(DpEvent event, double delta);

    /** δ(ε) of an event that is not a parallel composition (ε checked). */
    abstract double sequentialDelta(DpEvent event, double epsilon);
}
