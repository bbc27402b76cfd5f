package org.dpopt.spark;

import java.io.Serializable;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.dpopt.linalg.Checks;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.MultinomialLogisticLoss;
import org.dpopt.oracle.GllBisectionProx;

/**
 * A loss as executors rebuild it: a name from {@link Losses#byName} and, for the Moreau envelope of a
 * non-smooth loss, its (β, accuracy); for the k-class multinomial loss, k. Losses are not serializable;
 * their recipe is. Refuses a loss the recipe would not rebuild equal to itself.
 *
 * @param name the base loss's name
 * @param smoothed true for the Moreau envelope of the base loss
 * @param beta the envelope's β (0 unless smoothed)
 * @param accuracy the envelope's accuracy (0 unless smoothed)
 * @param classes k for the multinomial loss, else 0
 */
record LossCodec(String name, boolean smoothed, double beta, double accuracy, int classes) implements Serializable {
    /** The losses rebuilt in this JVM, one per recipe (losses are immutable and thread-safe). */
    private static final Map<LossCodec, Loss> BUILT = new ConcurrentHashMap<>();

    /** The recipe of a loss. */
    static LossCodec of(Loss loss) {
        Checks.notNull("loss", loss);
        if (loss instanceof MultinomialLogisticLoss m) {
            return new LossCodec(Losses.MULTINOMIAL, false, 0, 0, m.classes());
        }
        if (loss instanceof GllBisectionProx p) {
            LossCodec base = of(p.base());
            if (base.classes > 0) {
                throw Checks.fail("loss", "a generalized linear loss to smooth on Spark", p.base().name());
            }
            return new LossCodec(base.name, true, p.beta(), p.accuracy(), 0);
        }
        GeneralizedLinearLoss named;
        try {
            named = Losses.byName(loss.name());
        } catch (IllegalArgumentException e) {
            named = null;
        }
        if (named == null || !named.equals(loss)) {
            throw Checks.fail("loss", "a named generalized linear loss (" + Losses.NAMES + ") or the multinomial "
                    + "loss on Spark", loss.name());
        }
        return new LossCodec(loss.name(), false, 0, 0, 0);
    }

    /** The loss (rebuilt once per JVM and recipe). */
    Loss loss() {
        return BUILT.computeIfAbsent(this, LossCodec::build);
    }

    private Loss build() {
        if (classes > 0) {
            return Losses.multinomial(classes);
        }
        GeneralizedLinearLoss base = Losses.byName(name);
        return smoothed ? GllBisectionProx.of(base, beta, accuracy) : base;
    }

    /** The loss as a generalized linear loss (the full passes' kernels need one). */
    GeneralizedLinearLoss glm() {
        if (loss() instanceof GeneralizedLinearLoss g) {
            return g;
        }
        throw Checks.fail("loss", "a generalized linear loss for full passes on Spark", name);
    }
}
