package org.dpopt.accounting;

/**
 * A description of a randomized release that is necessary and sufficient for privacy accounting.
 *
 * <p>Events form a closed algebra of immutable, self-validating records: leaf mechanisms
 * ({@link GaussianEvent}, {@link LaplaceEvent}, {@link EpsilonDeltaEvent}), sampling wrappers
 * ({@link PoissonSampledEvent}), composition ({@link ComposedEvent}, {@link SelfComposedEvent},
 * {@link ParallelComposedEvent} over disjoint parts) and
 * the trivial {@link NoOpEvent} / {@link NonPrivateEvent}. Noise multipliers are always relative to
 * the sensitivity <em>under the accountant's neighbouring relation</em>: an optimizer that works
 * under replace-one states its sensitivity for replace-one.
 *
 * <p>Compatibility rules (after dp_accounting's {@code dp_event} module): an event's meaning never
 * changes once released; new event types are added to the permits list; accountants must answer
 * {@link PrivacyAccountant#unsupportedReason} for anything they cannot bound rather than guess.
 */
public sealed interface DpEvent permits NoOpEvent, NonPrivateEvent, GaussianEvent, LaplaceEvent,
        EpsilonDeltaEvent, PoissonSampledEvent, ComposedEvent, SelfComposedEvent, ParallelComposedEvent,
        AblqStepEvent, TruncatedPoissonEvent {

    /** A one-line human description, used in reports. */
    String describe();
}
