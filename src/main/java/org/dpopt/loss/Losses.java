package org.dpopt.loss;

import java.util.List;
import org.dpopt.linalg.Checks;

/**
 * Factory and implementations of the standard generalized linear losses.
 *
 * <p>Classification losses read the label as s = +1 if y &gt; 0 else −1 and act on the margin s·u.
 */
public final class Losses {
    private Losses() {
    }

    /** Names accepted by {@link #byName(String)}. */
    public static final List<String> NAMES = List.of("logistic", "hinge", "absolute", "squared", "huber",
            "smoothed-hinge", "phase-retrieval", "sigmoid", "cauchy");

    /** Looks a loss up by its CLI name with default parameters. */
    public static GeneralizedLinearLoss byName(String name) {
        switch (name) {
            case "logistic":
                return logistic();
            case "hinge":
                return hinge();
            case "absolute":
                return absolute();
            case "squared":
                return squared(1.0, 1.0);
            case "huber":
                return huber(1.0);
            case "smoothed-hinge":
                return smoothedHinge(1.0);
            case "phase-retrieval":
                return new PhaseRetrievalLoss(1.0);
            case "sigmoid":
                return SigmoidLoss.INSTANCE;
            case "cauchy":
                return CauchyLoss.INSTANCE;
            case MULTINOMIAL:
                throw Checks.fail("loss " + MULTINOMIAL, "built with its number of classes (Losses.multinomial(k))",
                        name);
            default:
                throw Checks.fail("loss", "one of " + NAMES + " or " + MULTINOMIAL, name);
        }
    }

    /** The name of the k-class loss, {@link #multinomial(int)} (it needs the number of classes). */
    public static final String MULTINOMIAL = "multinomial";

    /**
     * Looks a loss up by its CLI name: {@value #MULTINOMIAL} with k classes, else {@link #byName(String)}.
     *
     * @param classes k ≥ 2, used only by the multinomial loss
     */
    public static Loss byName(String name, int classes) {
        return MULTINOMIAL.equals(name) ? multinomial(classes) : byName(name);
    }

    /** The multinomial logistic (softmax) loss of a k-class model; L = √2·R, β = R²/2, convex. */
    public static MultinomialLogisticLoss multinomial(int classes) {
        return new MultinomialLogisticLoss(classes);
    }

    /** Logistic loss log(1 + e^{−s·u}); L₀ = 1, β₀ = 1/4, convex. */
    public static GeneralizedLinearLoss logistic() {
        return LogisticLoss.INSTANCE;
    }

    /** Hinge loss max(0, 1 − s·u); L₀ = 1, non-smooth, convex. */
    public static GeneralizedLinearLoss hinge() {
        return HingeLoss.INSTANCE;
    }

    /** Absolute loss |u − y|; L₀ = 1, non-smooth, convex (regression). */
    public static GeneralizedLinearLoss absolute() {
        return AbsoluteLoss.INSTANCE;
    }

    /**
     * Squared loss ½(u − y)² on the bounded domain |u| ≤ uMax, |y| ≤ yMax (so |u − y| ≤ uMax + yMax
     * = L₀); outside it the derivative is clamped to ±L₀ (the loss continues linearly), so the
     * declared Lipschitz bound holds everywhere. β₀ = 1.
     */
    public static GeneralizedLinearLoss squared(double uMax, double yMax) {
        return new SquaredLoss(uMax, yMax);
    }

    /** Huber loss with threshold h on the residual u − y: L₀ = h, β₀ = 1 (regression). */
    public static GeneralizedLinearLoss huber(double h) {
        return new HuberLoss(h);
    }

    /**
     * Smoothed hinge with smoothing width γ (the Moreau envelope of the hinge with β = 1/γ, up to
     * the constant): 0 for m ≥ 1; (1 − m)²/(2γ) for 1 − γ &lt; m &lt; 1; 1 − m − γ/2 for m ≤ 1 − γ,
     * with m = s·u. L₀ = 1, β₀ = 1/γ.
     */
    public static GeneralizedLinearLoss smoothedHinge(double gamma) {
        return new SmoothedHingeLoss(gamma);
    }

    static final class LogisticLoss extends ScalarLoss {
        static final LogisticLoss INSTANCE = new LogisticLoss();

        private LogisticLoss() {
            super("logistic", 1, 0.25, true);
        }

        @Override
        public double phi(double u, double y) {
            double m = GeneralizedLinearLoss.sign(y) * u;
            // log(1 + e^{-m}) computed stably
            return m > 0 ? Math.log1p(Math.exp(-m)) : -m + Math.log1p(Math.exp(m));
        }

        @Override
        public double derivative(double u, double y) {
            double s = GeneralizedLinearLoss.sign(y);
            double m = s * u;
            // -s / (1 + e^{m})
            double sig = m > 0 ? Math.exp(-m) / (1 + Math.exp(-m)) : 1 / (1 + Math.exp(m));
            return -s * sig;
        }

        @Override
        public double secondDerivative(double u, double y) {
            double p = 1 / (1 + Math.exp(-u));
            return p * (1 - p);
        }
    }

    static final class HingeLoss extends ScalarLoss {
        static final HingeLoss INSTANCE = new HingeLoss();

        private HingeLoss() {
            super("hinge", 1, Double.POSITIVE_INFINITY, true);
        }

        @Override
        public double phi(double u, double y) {
            return Math.max(0, 1 - GeneralizedLinearLoss.sign(y) * u);
        }

        @Override
        public double derivative(double u, double y) {
            double s = GeneralizedLinearLoss.sign(y);
            return s * u < 1 ? -s : 0;
        }
    }

    static final class AbsoluteLoss extends ScalarLoss {
        static final AbsoluteLoss INSTANCE = new AbsoluteLoss();

        private AbsoluteLoss() {
            super("absolute", 1, Double.POSITIVE_INFINITY, false);
        }

        @Override
        public double phi(double u, double y) {
            return Math.abs(u - y);
        }

        @Override
        public double derivative(double u, double y) {
            double r = u - y;
            return r > 0 ? 1 : (r < 0 ? -1 : 0);
        }
    }

    /**
     * The Huber function of the residual with threshold h: φ = r²/2 for |r| ≤ h, h|r| − h²/2 beyond;
     * φ′ = clamp(r, −h, h), φ″ = 1{|r| ≤ h}; L₀ = h, β₀ = 1.
     */
    abstract static class HuberShape extends ScalarLoss {
        final double h;

        HuberShape(String name, double h) {
            super(name, h, 1, false);
            this.h = h;
        }

        @Override
        public double phi(double u, double y) {
            double a = Math.abs(u - y);
            return a <= h ? 0.5 * a * a : h * a - 0.5 * h * h;
        }

        @Override
        public double derivative(double u, double y) {
            return Math.max(-h, Math.min(h, u - y));
        }

        @Override
        public double secondDerivative(double u, double y) {
            return Math.abs(u - y) <= h ? 1 : 0;
        }

        /** The threshold h. */
        @Override
        final double parameter() {
            return h;
        }
    }

    /** Squared loss r²/2 on the declared range |r| ≤ uMax + yMax, continued linearly beyond (Huber shape). */
    static final class SquaredLoss extends HuberShape {
        private final double uMax;
        private final double yMax;

        SquaredLoss(double uMax, double yMax) {
            super("squared", Checks.positive("uMax", uMax) + Checks.nonNegative("yMax", yMax));
            this.uMax = uMax;
            this.yMax = yMax;
        }

        @Override
        public String toString() {
            return "squared(uMax=" + uMax + ", yMax=" + yMax + ")";
        }
    }

    static final class HuberLoss extends HuberShape {
        HuberLoss(double h) {
            super("huber", Checks.positive("h", h));
        }
    }

    static final class SmoothedHingeLoss extends ScalarLoss {
        private final double gamma;

        SmoothedHingeLoss(double gamma) {
            super("smoothed-hinge", 1, 1 / Checks.positive("gamma", gamma), true);
            this.gamma = gamma;
        }

        /** The smoothing width γ. */
        @Override
        double parameter() {
            return gamma;
        }

        @Override
        public double phi(double u, double y) {
            double m = GeneralizedLinearLoss.sign(y) * u;
            if (m >= 1) {
                return 0;
            }
            if (m > 1 - gamma) {
                return (1 - m) * (1 - m) / (2 * gamma);
            }
            return 1 - m - gamma / 2;
        }

        @Override
        public double derivative(double u, double y) {
            double s = GeneralizedLinearLoss.sign(y);
            double m = s * u;
            if (m >= 1) {
                return 0;
            }
            if (m > 1 - gamma) {
                return -s * (1 - m) / gamma;
            }
            return -s;
        }

        @Override
        public double secondDerivative(double u, double y) {
            double m = GeneralizedLinearLoss.sign(y) * u;
            return (m < 1 && m > 1 - gamma) ? 1 / gamma : 0;
        }
    }
}
