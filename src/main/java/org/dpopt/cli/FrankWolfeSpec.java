package org.dpopt.cli;

import java.util.function.Function;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.frankwolfe.OnePassBuilder;

/**
 * A Frank–Wolfe algorithm of {@code dpopt train}: its constraint set is a polytope or an ℓp ball built by
 * {@link FrankWolfeDomains} from {@code --constraint}, {@code --radius} (and {@code --p}); the set's
 * flags come first, then, for the one-pass methods, {@code --rounds} and {@code --preset}.
 */
abstract class FrankWolfeSpec extends AlgorithmSpec {

    /** The two families of constraint sets: their flags, their hint and how the set is built. */
    enum Sets {
        /** The ℓ1 ball or the simplex (linear minimization over the vertices). */
        POLYTOPE(FrankWolfeDomains.polytopeFlags(), "--radius (the l1 ball must hold a useful model) or --constraint",
                FrankWolfeDomains::polytope),
        /** An ℓp ball. */
        LP_BALL(FrankWolfeDomains.lpBallFlags(), "--radius, --p or --constraint", FrankWolfeDomains::lpBall);

        private final FlagTable flags;
        private final String hint;
        private final Function<TrainArgs, ConvexSet> build;

        Sets(FlagTable flags, String hint, Function<TrainArgs, ConvexSet> build) {
            this.flags = flags;
            this.hint = hint;
            this.build = build;
        }
    }

    private final Sets sets;

    /**
     * @param onePass whether the algorithm makes one pass over the data (then it accepts --rounds and --preset)
     */
    FrankWolfeSpec(String name, String summary, Sets sets, boolean onePass) {
        this(name, summary, sets, onePass ? FlagTable.of(sets.flags).and(FrankWolfeDomains.onePassFlags())
                : sets.flags);
    }

    /** An algorithm with its own flag table (its set's flags and more). */
    FrankWolfeSpec(String name, String summary, Sets sets, FlagTable flags) {
        super(name, summary, sets.hint, flags);
        this.sets = sets;
    }

    /** The flags of a set family, to extend. */
    static FlagTable flagsOf(Sets sets) {
        return sets.flags;
    }

    @Override
    ConvexSet domain(TrainArgs a) {
        return sets.build.apply(a);
    }

    /** A one-pass method from its builder: the run options, {@code --preset} and, when given, {@code --rounds}. */
    static PrivateOptimizer onePass(OnePassBuilder<?, ?> b, TrainArgs a) {
        b.runOptions(a.runOptions()).preset(a.preset());
        a.ifGiven(Flag.ROUNDS, b::rounds);
        return b.build();
    }
}
