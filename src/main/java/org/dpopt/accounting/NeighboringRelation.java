package org.dpopt.accounting;

/** Which datasets count as neighbours. Fixed per accountant and stated in every report. */
public enum NeighboringRelation {
    /** S′ = S with one record added or removed (DP-SGD with Poisson sampling; Chua et al. 2024). */
    ADD_OR_REMOVE_ONE,
    /** S′ = S with one record replaced (Bassily et al. 2019; Feldman, Koren and Talwar 2020; Bassily, Guzmán and Menart 2021). Sensitivities are up to twice add/remove. */
    REPLACE_ONE,
    /**
     * S′ = S with one record replaced by a null record ⊥ whose every query value is 0, so n stays
     * public and fixed (Kairouz et al. 2021; the relation of Chua et al.'s deterministic and shuffled
     * batch analysis). A zero-out neighbour's Poisson-sampled output has the same law as the removal
     * neighbour's, so add/remove Poisson bounds hold under it; replace-one follows by group privacy (2×).
     */
    ZERO_OUT
}
