package org.dpopt.cli;

import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.geometry.LpBall;
import org.dpopt.geometry.Polytope;
import org.dpopt.geometry.Polytopes;
import org.dpopt.linalg.Checks;

/**
 * The constraint sets of the Frank–Wolfe algorithms from {@code --constraint}, {@code --radius} and
 * {@code --p}: polytopes ({@code l1} ball, {@code simplex}) for noisy and variance-reduced FW, ℓp balls
 * ({@code lp}, or {@code l1} through the ℓ_{p̃} ball, p̃ = 1 + 1/ln d, which contains the ℓ1 ball of the
 * same radius) for noisy stochastic FW.
 */
final class FrankWolfeDomains {
    private FrankWolfeDomains() {
    }

    /** Default radius of the polytopes (ℓ1 ball, simplex). */
    static final double DEFAULT_RADIUS = 1.0;


    /** The flags of the polytope algorithms, with their defaults. */
    static FlagTable polytopeFlags() {
        return FlagTable.of(Flag.CONSTRAINT, "l1 (or simplex)").and(Flag.RADIUS, Double.toString(DEFAULT_RADIUS));
    }

    /** The flags of the ℓp-ball algorithm, with their defaults. */
    static FlagTable lpBallFlags() {
        return FlagTable.of(Flag.CONSTRAINT, "lp (or l1)").and(Flag.RADIUS, "5 sqrt(n eps) (an l2 ball) with the practical preset when none of --constraint, --radius, --p is given; sqrt(n eps)/6 with --preset paper or --rounds; 1 otherwise")
                .and(Flag.P, "2");
    }

    /** The flags of the one-pass methods (rounds, preset), to append to their set's flags. */
    static FlagTable onePassFlags() {
        return FlagTable.of(Flag.ROUNDS, "ceil((n eps)^(1/3)) in one pass (noisy-sfw: giving it selects the one-pass schedule instead of the "
                + "Poisson batches)")
                .and(Flag.PRESET, "practical (last iterate; noisy-sfw: Frank-Wolfe on Poisson batches unless --rounds; "
                        + "paper: one pass, the uniformly random iterate)");
    }

    static Polytope polytope(TrainArgs a) {
        double r = Checks.positive("--radius", a.or(Flag.RADIUS, DEFAULT_RADIUS));
        String c = a.or(Flag.CONSTRAINT, "l1");
        return switch (c) {
            case "l1" -> Polytopes.l1Ball(r);
            case "simplex" -> Polytopes.simplex(r);
            default -> throw Checks.fail("--constraint", "l1 or simplex for a polytope algorithm", c);
        };
    }

    /**
     * The set of noisy-sfw: with none of --constraint, --radius, --p the problem is unconstrained and the
     * optimizer uses the ℓ2 ball of its public radius rule, 5√(nε) on Poisson batches, √(nε)/6 for the
     * one-pass and full-batch schedules (its plan reports the radius);
     * otherwise the ℓp ball (or the ℓ_p̃ ball for {@code l1}) of the given radius, default 1.
     */
    static ConvexSet lpBall(TrainArgs a) {
        if (!a.has(Flag.CONSTRAINT) && !a.has(Flag.RADIUS) && !a.has(Flag.P)) {
            return ConvexSets.unconstrained();
        }
        double r = Checks.positive("--radius", a.or(Flag.RADIUS, DEFAULT_RADIUS));
        String c = a.or(Flag.CONSTRAINT, "lp");
        return switch (c) {
            case "lp" -> new LpBall(a.or(Flag.P, 2.0), r);
            case "l1" -> {
                if (a.has(Flag.P)) {
                    throw Checks.fail("--p", "absent with --constraint l1 (p~ = 1 + 1/ln d is used)", a.get(Flag.P));
                }
                yield LpBall.effective(1.0, r);
            }
            default -> throw Checks.fail("--constraint", "lp or l1 for noisy-sfw", c);
        };
    }
}
