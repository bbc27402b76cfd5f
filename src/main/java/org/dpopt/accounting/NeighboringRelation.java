package org.dpopt.accounting;

/** Which datasets count as neighbours. Fixed per accountant and stated in every report. */
public enum NeighboringRelation {
    /** S′ = S with one record added or removed (DP-SGD with Poisson sampling; paper D). */
    ADD_OR_REMOVE_ONE,
    /** S′ = S with one record replaced (papers A, B, C). Sensitivities are up to twice add/remove. */
    REPLACE_ONE
}
