package org.dpopt.optim;

import java.util.Locale;
import org.dpopt.linalg.Checks;

/**
 * Which rule an optimizer's unset hyperparameters come from, reported as {@link Param#PRESET}.
 *
 * <p>Every algorithm is a research result with a theorem, and its defaults are part of the algorithm:
 * {@link #PAPER} keeps the theorem's own setting (step sizes, round counts, regularisation, output
 * iterate, as the paper states or as {@code theory-notes/} reconstructs them), {@link #PRACTICAL} a rule
 * from the same public quantities (n, d, ε, δ, the declared bounds) that was chosen where the theorem's
 * setting is poor on real data — fitted only on validation splits of public training files, never on a
 * test split ({@code theory-notes/defaults.md} gives each rule and where it came from). Both presets have
 * the same privacy argument; only utility differs.
 */
public enum Preset {
    /** The theorem's setting. */
    PAPER,
    /** The documented practical rule (the default where it differs from the paper's). */
    PRACTICAL;

    /** The lower-case name used by the CLI and in reports ("paper", "practical"). */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The preset of a CLI name. */
    public static Preset byName(String name) {
        for (Preset p : values()) {
            if (p.key().equals(name)) {
                return p;
            }
        }
        throw Checks.fail("--preset", "paper or practical", name);
    }
}
