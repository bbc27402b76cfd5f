package org.dpopt.accounting;

import java.util.ArrayList;
import java.util.List;
import org.dpopt.linalg.Checks;

/**
 * Basic (sequential) composition: (ε_i, δ_i)-DP releases compose to (Σε_i, Σδ_i).
 *
 * <p>Leaves: {@link EpsilonDeltaEvent} (as stated), {@link LaplaceEvent} (pure ε = 1/b),
 * {@link GaussianEvent} (exact Balle–Wang curve). Gaussian releases have no fixed δ: the δ left after
 * the fixed-δ leaves, δ − Σδ_i, is split equally among the Gaussian releases, each converted with
 * the exact curve — valid for any split, so this is an upper bound. Parallel composition takes the
 * worst part (at the part's share of δ). Poisson sampling is unsupported (use RDP or PLD).
 *
 * <p>Loose for many releases (use RDP, PLD or advanced composition there); exact for the two-part
 * mechanisms it is meant for, such as approximate objective perturbation (an (ε/2, δ/2) minimizer
 * plus a Gaussian output release at (ε/2, δ/2)).
 */
public final class BasicCompositionAccountant extends CompositionAccountant {

    /** Under the given relation (the events' sensitivities must refer to it). */
    public BasicCompositionAccountant(NeighboringRelation relation) {
        super(relation);
    }

    @Override
    public String name() {
        return "basic-composition";
    }

    /** Counts of fixed leaves and Gaussian leaves of an event. */
    private static final class Tally {
        double fixedEpsilon;
        double fixedDelta;
        final List<double[]> gaussians = new ArrayList<>(); // {z, count}
        boolean nonPrivate;
    }

    private void tally(DpEvent e, Tally t) {
        Compositions.forEachLeaf(e, 1, (leaf, mult) -> {
            if (leaf instanceof NonPrivateEvent) {
                t.nonPrivate = true;
            } else if (leaf instanceof EpsilonDeltaEvent ed) {
                t.fixedEpsilon += mult * ed.epsilon();
                t.fixedDelta += mult * ed.delta();
            } else if (leaf instanceof LaplaceEvent l) {
                t.fixedEpsilon += mult / l.noiseMultiplier();
            } else if (leaf instanceof GaussianEvent g) {
                t.gaussians.add(new double[] {g.noiseMultiplier(), mult});
            } else {
                throw new UnsupportedEventException(leaf, name(), "basic composition handles (eps, delta), Laplace, "
                        + "Gaussian, composition and parallel composition only");
            }
        });
    }

    @Override
    double sequentialEpsilon(DpEvent event, double delta) {
        if (event instanceof ComposedEvent c && c.events().stream().anyMatch(x -> x instanceof ParallelComposedEvent)) {
            throw new UnsupportedEventException(event, name(), "parallel composition nested inside sequential "
                    + "composition is not supported by basic composition");
        }
        Tally t = new Tally();
        tally(event, t);
        if (t.nonPrivate) {
            return Double.POSITIVE_INFINITY;
        }
        double left = delta - t.fixedDelta;
        long g = 0;
        for (double[] gz : t.gaussians) {
            g += (long) gz[1];
        }
        if (g == 0) {
            return left >= 0 ? t.fixedEpsilon : Double.POSITIVE_INFINITY;
        }
        if (!(left > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        double share = left / g;
        double eps = t.fixedEpsilon;
        for (double[] gz : t.gaussians) {
            eps += gz[1] * GaussianMechanism.epsilon(share, gz[0]);
        }
        return eps;
    }

    @Override
    double sequentialDelta(DpEvent event, double epsilon) {
        Tally t = new Tally();
        tally(event, t);
        if (t.nonPrivate) {
            return 1;
        }
        double left = epsilon - t.fixedEpsilon;
        long g = 0;
        for (double[] gz : t.gaussians) {
            g += (long) gz[1];
        }
        if (left < 0) {
            return 1;
        }
        double d = t.fixedDelta;
        if (g > 0) {
            double share = left / g; // equal ε split among Gaussian releases
            for (double[] gz : t.gaussians) {
                d += gz[1] * GaussianMechanism.delta(share, gz[0]);
            }
        }
        return Math.min(1, d);
    }
}
