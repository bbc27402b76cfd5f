package org.dpopt.cli;

import java.util.Set;
import org.dpopt.geometry.LpBall;
import org.dpopt.geometry.Polytope;
import org.dpopt.geometry.Polytopes;
import org.dpopt.linalg.Checks;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;
import org.dpopt.optim.frankwolfe.NoisyStochasticFrankWolfe;
import org.dpopt.optim.frankwolfe.VarianceReducedFrankWolfe;

/**
 * CLI specs of the private Frank–Wolfe family: noisy-frank-wolfe, vr-frank-wolfe (polytopes:
 * {@code --constraint l1|simplex}) and noisy-sfw ({@code --constraint lp --p P}, or {@code l1} through
 * the ℓ_{p̃} ball with p̃ = 1 + 1/ln d, which contains the ℓ1 ball of the same radius).
 */
final class FrankWolfeAlgorithms {
    private FrankWolfeAlgorithms() {
    }

    private static final Set<String> POLYTOPE_FLAGS = Set.of("--constraint", "--radius");

    static Polytope polytope(TrainOptions o) {
        String c = TrainOptions.or(o.constraint(), "l1");
        double r = TrainOptions.or(o.radius(), 1.0);
        Checks.positive("--radius", r);
        switch (c) {
            case "l1":
                return Polytopes.l1Ball(r);
            case "simplex":
                return Polytopes.simplex(r);
            default:
                throw Checks.fail("--constraint", "l1 or simplex for a polytope algorithm", c);
        }
    }

    static LpBall lpBall(TrainOptions o) {
        String c = TrainOptions.or(o.constraint(), "lp");
        double r = TrainOptions.or(o.radius(), 1.0);
        Checks.positive("--radius", r);
        switch (c) {
            case "lp": {
                double p = TrainOptions.or(o.p(), 2.0);
                return new LpBall(p, r);
            }
            case "l1":
                if (o.p() != null) {
                    throw Checks.fail("--p", "absent with --constraint l1 (p~ = 1 + 1/ln d is used)", o.p());
                }
                return LpBall.effective(1.0, r);
            default:
                throw Checks.fail("--constraint", "lp or l1 for noisy-sfw", c);
        }
    }

    static Algorithms.Spec noisyFrankWolfe() {
        return new Algorithms.Spec("noisy-frank-wolfe", POLYTOPE_FLAGS, "logistic",
                o -> NoisyFrankWolfe.builder().domain(polytope(o)).build(),
                "BGM21 Alg. 3: full-batch noisy Frank-Wolfe, report-noisy-max over vertices, advanced composition");
    }

    static Algorithms.Spec vrFrankWolfe() {
        return new Algorithms.Spec("vr-frank-wolfe", POLYTOPE_FLAGS, "logistic",
                o -> VarianceReducedFrankWolfe.builder().domain(polytope(o)).build(),
                "BGM21 Alg. 4: one-pass variance-reduced private Frank-Wolfe (smooth, non-convex allowed)");
    }

    static Algorithms.Spec noisySfw() {
        return new Algorithms.Spec("noisy-sfw", Set.of("--constraint", "--radius", "--p"), "logistic",
                o -> NoisyStochasticFrankWolfe.builder().domain(lpBall(o)).build(),
                "BGM21 Alg. 5: one-pass noisy stochastic Frank-Wolfe over an lp ball (Gaussian, RDP)");
    }
}
