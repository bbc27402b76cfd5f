package org.dpopt.cli;

import java.util.Map;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.optim.PrivateOptimizer;

/**
 * How {@code dpopt train} offers one algorithm: its name (the optimizer's), the optional flags it
 * accepts with their defaults, its default loss and constraint set, and how it builds the optimizer.
 * To add an algorithm, write one class implementing this and list it in {@link AlgorithmSpecs}.
 */
interface AlgorithmSpec {

    /** The CLI name (equal to the optimizer's {@code name()}). */
    String name();

    /** One line for help output. */
    String summary();

    /** The optional flags this algorithm accepts, each with its default as shown in help. */
    Map<Flag<?>, String> flags();

    /** The loss used when {@code --loss} is not given. */
    default String defaultLoss() {
        return "logistic";
    }

    /**
     * The loss used when {@code --loss} is not given, for this training file (default: {@link #defaultLoss()};
     * an algorithm whose default is a regression loss may follow binary labels to a classification loss).
     */
    default String defaultLoss(Dataset train) {
        return defaultLoss();
    }

    /** False only for the non-private baseline (which refuses --epsilon/--delta). */
    default boolean isPrivate() {
        return true;
    }

    /** The constraint set: the ℓ2 ball of {@code --radius} if given, else ℝ^d. */
    default ConvexSet domain(TrainArgs args) {
        Double r = args.get(Flag.RADIUS);
        return r == null ? ConvexSets.unconstrained() : ConvexSets.l2Ball(r);
    }

    /** The knobs that matter most when this algorithm's model is no better than the majority class. */
    default String hint() {
        return "--epochs, --learning-rate or --clip-norm";
    }

    /** Builds the optimizer from the given flags (absent flags take the documented defaults). */
    PrivateOptimizer build(TrainArgs args);
}
