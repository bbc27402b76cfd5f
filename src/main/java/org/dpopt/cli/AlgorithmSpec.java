package org.dpopt.cli;

import java.util.Map;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.PrivateOptimizer;

/**
 * How {@code dpopt train} offers one algorithm: its name (the optimizer's), a line of help, the hint
 * shown when its model is no better than the majority class, the optional flags it accepts with their
 * defaults, its default loss and constraint set, and how it builds the optimizer. To add an algorithm,
 * write one subclass that passes its identity to this constructor and implements {@link #build}, and
 * list it in {@link AlgorithmSpecs}.
 */
abstract class AlgorithmSpec {

    /** The hint of the SGD-style algorithms (the default). */
    static final String SGD_HINT = "--epochs, --learning-rate or --clip-norm";

    private final String name;
    private final String summary;
    private final String hint;
    private final Map<Flag<?>, String> flags;

    /**
     * @param name the CLI name (equal to the optimizer's {@code name()})
     * @param summary one line for help output
     * @param hint the knobs that matter most when the model is no better than the majority class
     * @param flags the optional flags accepted, each with its default as shown in help, in help order
     */
    AlgorithmSpec(String name, String summary, String hint, FlagTable flags) {
        this.name = Checks.notNull("name", name);
        this.summary = Checks.notNull("summary", summary);
        this.hint = Checks.notNull("hint", hint);
        this.flags = flags.asMap();
    }

    /** The CLI name (equal to the optimizer's {@code name()}). */
    final String name() {
        return name;
    }

    /** One line for help output. */
    final String summary() {
        return summary;
    }

    /** The knobs that matter most when this algorithm's model is no better than the majority class. */
    final String hint() {
        return hint;
    }

    /** The optional flags this algorithm accepts, each with its default as shown in help (unmodifiable). */
    final Map<Flag<?>, String> flags() {
        return flags;
    }

    /** The loss used when {@code --loss} is not given. */
    String defaultLoss() {
        return "logistic";
    }

    /**
     * The loss used when {@code --loss} is not given, for this training file (default: {@link #defaultLoss()};
     * an algorithm whose default is a regression loss may follow binary labels to a classification loss).
     */
    String defaultLoss(Dataset train) {
        return defaultLoss();
    }

    /** False only for the non-private baseline (which refuses --epsilon/--delta). */
    boolean isPrivate() {
        return true;
    }

    /** The constraint set: the ℓ2 ball of {@code --radius} if given, else ℝ^d. */
    ConvexSet domain(TrainArgs args) {
        Double r = args.get(Flag.RADIUS);
        return r == null ? ConvexSets.unconstrained() : ConvexSets.l2Ball(r);
    }

    /** The ℓ2 ball of {@code --radius}, or of the given radius when it is absent. */
    static ConvexSet l2Ball(TrainArgs args, double defaultRadius) {
        return ConvexSets.l2Ball(args.or(Flag.RADIUS, defaultRadius));
    }

    /** Builds the optimizer from the given flags (absent flags take the documented defaults). */
    abstract PrivateOptimizer build(TrainArgs args);
}
