package org.dpopt.accounting.pld;

/** How a continuous or off-grid privacy loss is put on the grid. */
public enum Rounding {
    /**
     * Pessimistic connect-the-dots (Doroshenko, Ghazi, Kamath, Kumar, Manurangsi, "Connect the Dots:
     * Tighter Discrete Approximations of Privacy Loss Distributions", PoPETs 2022, arXiv:2207.04380):
     * mass at a loss l ∈ [l_k, l_{k+1}] is split between the two neighbouring grid points so that both
     * its P-mass and its Q-mass are preserved; the resulting hockey-stick curve is the chord of the true
     * one in e^ε, hence an upper bound for every ε, with error O(h²) instead of O(h). Default.
     */
    CONNECT_THE_DOTS(true),
    /** Pessimistic: every loss rounded up to the next grid point (error up to h per composition). */
    CEIL(true),
    /** Optimistic: every loss rounded down (a lower bound on δ). */
    FLOOR(false);

    private final boolean pessimistic;

    Rounding(boolean pessimistic) {
        this.pessimistic = pessimistic;
    }

    /** True for the upper-bound roundings. */
    public boolean isPessimistic() {
        return pessimistic;
    }
}
