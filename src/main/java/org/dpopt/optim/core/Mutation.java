package org.dpopt.optim.core;

import java.util.Locale;

/**
 * Deliberately broken variants of the optimizers, for <b>auditing only</b>: an empirical privacy
 * audit must flag each of them (its ε lower bound exceeds the claimed ε), which shows that the audit
 * has power. A mutated run's report carries a note saying it is broken on purpose and certifies
 * nothing. Set through an optimizer builder's {@code mutation(...)}; the CLI exposes it only as
 * {@code dpopt audit --mutant NAME}.
 */
public enum Mutation {
    /** The correct algorithm. */
    NONE,
    /** Every noise draw at half its standard deviation (or Laplace scale) while the full one is recorded. */
    HALF_NOISE,
    /**
     * Every release is noised with half the sensitivity its caller states: the bug of a sensitivity
     * computed for the wrong relation or bound. A Gaussian release is noised (and reported to the
     * release observer) at Δ/2; objective-perturbation noise, whose σ is proportional to the per-record
     * gradient bound, at σ/2.
     */
    HALF_SENSITIVITY,
    /** DP-SGD family: per-example gradients are not clipped. */
    NO_CLIPPING,
    /** DP-SGD: the noisy sum is divided by the realized batch size instead of the public normalizer. */
    REALIZED_BATCH,
    /** DP-SGD: the privacy statement is made for sampling rate q/2 while batches are drawn at q. */
    HALF_RATE_ACCOUNTING,
    /** DP-SGD: batches come from a shuffle while the statement is Poisson sampling at q = b/n. */
    SHUFFLE_AS_POISSON,
    /** Objective perturbation run with a smoothness β above the theorem's limit εnλ. */
    OBJPERT_BETA,
    /** Report-noisy-max with half the Laplace scale the statement assumes. */
    RNM_HALF_SCALE;

    private final String cliName = name().toLowerCase(Locale.ROOT).replace('_', '-');

    /** The name used by {@code dpopt audit --mutant}: the constant's name in lower case, words joined by '-'. */
    public String cliName() {
        return cliName;
    }

    /** The mutation with that CLI name. */
    public static Mutation byName(String name) {
        for (Mutation m : values()) {
            if (m.cliName.equals(name)) {
                return m;
            }
        }
        throw org.dpopt.linalg.Checks.fail("--mutant", "one of " + java.util.Arrays.stream(values())
                .map(Mutation::cliName).toList(), name);
    }
}
