package org.dpopt.cli;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.linalg.Checks;
import org.dpopt.noise.Rngs;
import picocli.CommandLine.Option;

/**
 * Where the noise of a {@code dpopt train} run comes from (a picocli mixin): a cryptographic generator by
 * default, or, in research mode, a seed that makes the run reproducible and not private.
 */
final class NoiseOptions {
    @Option(names = "--seed", description = "Research mode: seed all noise and sampling (reproducible, NOT private "
            + "unless the seed is secret and random). Default: secure noise.")
    Long seed;
    @Option(names = "--secure", description = "Secure noise from a cryptographic generator (the default).")
    boolean secure;

    /** Refuses --seed with --secure. */
    void check() {
        if (seed != null && secure) {
            throw Checks.fail("--seed", "absent with --secure (secure noise cannot be seeded)", seed);
        }
    }

    /** True in research mode. */
    boolean seeded() {
        return seed != null;
    }

    /** The noise source: seeded with --seed, else secure. */
    UniformRandomProvider rng() {
        return seed != null ? Rngs.seeded(seed) : Rngs.secure();
    }
}
