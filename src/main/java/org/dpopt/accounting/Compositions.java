package org.dpopt.accounting;

import java.util.Optional;
import java.util.function.ToDoubleFunction;
import org.dpopt.linalg.Checks;

/**
 * Steps shared by the composition-based accountants (basic, advanced, PLD) and the RDP curves: walking
 * a sequential composition down to its leaves, the worst part of a parallel composition, the ε ≥ 0
 * check and turning a refusal into {@link PrivacyAccountant#unsupportedReason}.
 */
final class Compositions {
    private Compositions() {
    }

    /** Receives one leaf of a sequential composition and how many times it is released. */
    @FunctionalInterface
    interface LeafVisitor {
        void leaf(DpEvent leaf, long count);
    }

    /**
     * Visits the leaves of {@code e} repeated {@code count} times: NoOps are skipped, the parts of a
     * {@link ComposedEvent} are visited in order, a {@link SelfComposedEvent} multiplies the count
     * ({@link ArithmeticException} on overflow); every other event is a leaf for the visitor to
     * accept or refuse. A total count above {@link Long#MAX_VALUE} is refused (IllegalArgumentException).
     */
    static void forEachLeaf(DpEvent e, long count, LeafVisitor visitor) {
        if (e instanceof NoOpEvent) {
            return;
        }
        if (e instanceof ComposedEvent c) {
            for (DpEvent s : c.events()) {
                forEachLeaf(s, count, visitor);
            }
            return;
        }
        if (e instanceof SelfComposedEvent s) {
            forEachLeaf(s.event(), DpEvents.multiplyCounts(count, s.count()), visitor);
            return;
        }
        visitor.leaf(e, count);
    }

    /**
     * max(0, max over the parts of {@code value}): a neighbour changes one part only. Equal parts (equal
     * events) are evaluated once.
     */
    static double worstPart(ParallelComposedEvent par, ToDoubleFunction<DpEvent> value) {
        double worst = 0;
        for (DpEvent part : new java.util.LinkedHashSet<>(par.events())) {
            worst = Math.max(worst, value.applyAsDouble(part));
        }
        return worst;
    }

    /** Requires ε ≥ 0 (+∞ allowed) for a δ(ε) query. */
    static void checkEpsilon(double epsilon) {
        if (!(epsilon >= 0)) {
            throw Checks.fail("epsilon", "non-negative", epsilon);
        }
    }

    /** Empty if {@code probe} runs, otherwise the message of the {@link UnsupportedEventException} it throws. */
    static Optional<String> unsupportedReason(Runnable probe) {
        try {
            probe.run();
            return Optional.empty();
        } catch (UnsupportedEventException e) {
            return Optional.of(e.getMessage());
        }
    }
}
