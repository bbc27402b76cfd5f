package org.dpopt.cli;

import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * An optional hyperparameter flag of {@code dpopt train}: one declaration gives picocli its typed
 * option, the help text, and the "flag not used by this algorithm" check. Algorithms list the flags
 * they accept in their {@link AlgorithmSpec}; every other given flag is refused.
 *
 * @param name the option name, e.g. {@code --epochs}
 * @param type its value type (picocli converts and refuses malformed values)
 * @param label the value's label in help
 * @param help one line of help
 * @param <T> the value type
 */
record Flag<T>(String name, Class<T> type, String label, String help) {

    static final Flag<Double> EPOCHS = new Flag<>("--epochs", Double.class, "E", "passes over the data");
    static final Flag<Integer> BATCH_SIZE = new Flag<>("--batch-size", Integer.class, "B",
            "(expected) batch size");
    static final Flag<Double> CLIP_NORM = new Flag<>("--clip-norm", Double.class, "C", "per-example clip norm");
    static final Flag<Double> LEARNING_RATE = new Flag<>("--learning-rate", Double.class, "ETA", "step size");
    static final Flag<String> SAMPLER = new Flag<>("--sampler", String.class, "NAME", "batch sampler: "
            + String.join("|", org.dpopt.sampling.Samplers.names()));
    static final Flag<Integer> MAX_BATCH_SIZE = new Flag<>("--max-batch-size", Integer.class, "M",
            "largest batch of the truncated-poisson sampler");
    static final Flag<Double> RADIUS = new Flag<>("--radius", Double.class, "R", "radius of the constraint set");
    static final Flag<Double> L2 = new Flag<>("--l2", Double.class, "LAMBDA", "l2 regularization");
    static final Flag<Double> P = new Flag<>("--p", Double.class, "P", "the p of an lp geometry");
    static final Flag<String> CONSTRAINT = new Flag<>("--constraint", String.class, "SET",
            "constraint set: l1|simplex|lp");
    static final Flag<String> ACCOUNTANT = new Flag<>("--accountant", String.class, "NAME", "privacy accountant");
    static final Flag<Double> RHO = new Flag<>("--rho", Double.class, "RHO", "declared weak-convexity constant");
    static final Flag<Integer> ROUNDS = new Flag<>("--rounds", Integer.class, "R", "rounds of a one-pass method");
    static final Flag<String> PRESET = new Flag<>("--preset", String.class, "NAME", "defaults: practical (the "
            + "documented rule) or paper (the theorem's setting)");

    static final Flag<Double> CONSTANT_CHECK = new Flag<>("--constant-check", Double.class, "SHARE", "share of "
            + "epsilon spent checking a binary classifier privately against the two constant ones (0: off)");

    /** Every flag, in help order. */
    static final List<Flag<?>> ALL = List.of(EPOCHS, BATCH_SIZE, CLIP_NORM, LEARNING_RATE, SAMPLER, MAX_BATCH_SIZE,
            RADIUS, L2, P, CONSTRAINT, ACCOUNTANT, RHO, ROUNDS, PRESET, CONSTANT_CHECK);

    /** Adds every flag to a command as a typed option. */
    static void addAll(CommandSpec spec) {
        for (Flag<?> f : ALL) {
            spec.addOption(OptionSpec.builder(f.name()).type(f.type()).paramLabel(f.label())
                    .description(f.help() + " (accepted by some algorithms; see --algorithm)").build());
        }
    }

    /** The value given on the command line, or null. */
    T value(ParseResult parsed) {
        if (!parsed.hasMatchedOption(name)) {
            return null;
        }
        return type.cast(parsed.matchedOptionValue(name, null));
    }
}
