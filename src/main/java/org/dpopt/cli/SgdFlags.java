package org.dpopt.cli;

import java.util.function.Consumer;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.sgd.SgdBuilder;

/**
 * The SGD schedule flags that dp-sgd, nsgd, non-private and prox-sgd share ({@code --epochs},
 * {@code --batch-size}, DP-SGD's {@code --clip-norm}, {@code --learning-rate}): their defaults as help
 * shows them, and how given values reach a builder (always in this order, so that the first bad value
 * named is the same for every algorithm).
 */
final class SgdFlags {
    private SgdFlags() {
    }

    /**
     * The schedule group.
     *
     * @param epochs the default of {@code --epochs}
     * @param clipped whether {@code --clip-norm} (per-example clipping) belongs to the algorithm
     * @param note appended to every default (e.g. the preset they hold under), or empty
     */
    static FlagTable schedule(String epochs, boolean clipped, String note) {
        FlagTable t = FlagTable.of(Flag.EPOCHS, epochs + note).and(Flag.BATCH_SIZE, "min(256, n/10)" + note);
        if (clipped) {
            t.and(Flag.CLIP_NORM, "1" + note);
        }
        return t.and(Flag.LEARNING_RATE, "1" + note);
    }

    /** The schedule group without a note. */
    static FlagTable schedule(String epochs, boolean clipped) {
        return schedule(epochs, clipped, "");
    }

    /** Sets the given {@code --epochs}, {@code --batch-size} and {@code --learning-rate}. */
    static void apply(TrainArgs a, SgdBuilder<?> b) {
        apply(a, b, null);
    }

    /** Sets the given {@code --epochs}, {@code --batch-size}, {@code --clip-norm} and {@code --learning-rate}. */
    static void apply(TrainArgs a, NoisySgd.Builder b) {
        apply(a, b, b::clipNorm);
    }

    private static void apply(TrainArgs a, SgdBuilder<?> b, Consumer<Double> clipNorm) {
        a.ifGiven(Flag.EPOCHS, b::epochs);
        a.ifGiven(Flag.BATCH_SIZE, b::batchSize);
        if (clipNorm != null) {
            a.ifGiven(Flag.CLIP_NORM, clipNorm);
        }
        a.ifGiven(Flag.LEARNING_RATE, b::learningRate);
    }
}
