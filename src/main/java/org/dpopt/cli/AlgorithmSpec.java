package org.dpopt.cli;

import java.util.Map;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.Loss;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.check.ConstantCheck;

/**
 * How {@code dpopt train} offers one algorithm: its name (the optimizer's), a line of help, the hint
 * shown when its model is no better than the majority class, the optional flags it accepts with their
 * defaults, its default loss and constraint set, and how it builds the optimizer. To add an algorithm,
 * write one subclass that passes its identity to this constructor and implements {@link #build}, and
 * list it in {@link AlgorithmSpecs}.
 */
abstract class AlgorithmSpec {

    /** The smallest positive share of ε the constant check accepts. */
    static final double MIN_CONSTANT_CHECK = 1e-6;

    /** The hint of the SGD-style algorithms (the default). */
    static final String SGD_HINT = "--epochs, --learning-rate or --clip-norm";

    private final String name;
    private final String summary;
    private final String hint;
    private final FlagTable table;
    private Map<Flag<?>, String> flags;

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
        this.table = Checks.notNull("flags", flags);
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

    /**
     * The optional flags this algorithm accepts, each with its default as shown in help (unmodifiable); a
     * private algorithm also accepts {@code --constant-check}.
     */
    final Map<Flag<?>, String> flags() {
        if (flags == null) {
            flags = isPrivate() ? FlagTable.of(table).and(Flag.CONSTANT_CHECK, Double.toString(constantCheckDefault()))
                    .asMap() : table.asMap();
        }
        return flags;
    }

    /**
     * The share of ε the constant check spends when {@code --constant-check} is not given (0: off): 0.1,
     * chosen on validation splits of the public datasets (see the theory notes on defaults).
     */
    double constantCheckDefault() {
        return 0.1;
    }

    /**
     * The trained classifier's head start in the constant check, in Laplace scales of its selection:
     * 2, chosen on validation splits of the public datasets (see the theory notes on defaults), where
     * it kept most of what the check saves on models worse than a constant and gave back most of what
     * its noise cost good models on small sets.
     */
    double constantCheckMargin(TrainArgs args) {
        return 2;
    }

    /**
     * The share of ε for the constant check: {@code --constant-check}, else the default.
     *
     * @throws IllegalArgumentException if the share is outside [0, 1)
     */
    final double constantCheckShare(TrainArgs args) {
        double s = args.or(Flag.CONSTANT_CHECK, constantCheckDefault());
        if (!(s == 0 || (s >= MIN_CONSTANT_CHECK && s < 1))) {
            throw Checks.fail("--constant-check", "0 (off) or in [" + MIN_CONSTANT_CHECK + ", 1)", s);
        }
        return s;
    }

    /**
     * The optimizer to run on a problem of this shape: {@code opt} checked against the constant
     * classifiers when the share is positive and the problem is a binary classifier with an intercept,
     * else {@code opt} itself.
     *
     * @throws IllegalArgumentException if {@code --constant-check} was given positive for a problem it
     *         cannot check
     */
    final PrivateOptimizer checked(PrivateOptimizer opt, TrainArgs args, Loss loss, boolean intercept) {
        double s = isPrivate() ? constantCheckShare(args) : 0;
        boolean binary = loss.isClassification() && loss.outputs() == 1;
        if (s > 0 && binary && intercept) {
            return ConstantCheck.builder(opt).share(s).margin(constantCheckMargin(args)).runOptions(args.runOptions())
                    .build();
        }
        if (s > 0 && args.has(Flag.CONSTANT_CHECK)) {
            throw Checks.fail("--constant-check", "0 " + (binary ? "without an intercept (--no-intercept)"
                    : "for a loss that is not a binary classifier's (" + loss.name() + ")"), s);
        }
        return opt;
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
