package org.dpopt.accounting;

import org.dpopt.accounting.pld.PoissonGaussianExact;

/**
 * Certified lower bounds on the privacy curve of an event's dominating pairs, from closed forms only:
 * the standing guard that every reported upper bound is checked against, and a floor for reports'
 * {@code epsilonLower}.
 *
 * <p>A composition releases each of its parts, so its hockey-stick divergence at every ε is at least
 * that of any single part (post-processing: drop the other outputs); a parallel composition's is at
 * least its worst part's. For the parts with a closed-form test this class evaluates it:
 * Gaussian releases (all Gaussian parts of a composition merged into one, exact Balle–Wang curve),
 * T-fold Poisson-subsampled Gaussians ({@link PoissonGaussianExact}: max statistic, exact for
 * T = 1; with {@code thorough} also the sum statistic) and Laplace releases (exact curve
 * δ(ε) = 1 − e^{(ε − 1/b)/2} for ε &lt; 1/b). Other parts contribute nothing (bound 0).
 */
final class LowerBounds {
    private LowerBounds() {
    }

    /** A certified lower bound on ε(δ) of the normalized event (0 if none is known). */
    static double epsilon(DpEvent e, double delta, boolean thorough) {
        return worst(e, (leaf, count) -> {
            if (leaf instanceof PoissonSampledEvent p && p.event() instanceof GaussianEvent g) {
                double q = p.samplingProbability();
                double z = g.noiseMultiplier();
                double v = PoissonGaussianExact.maxStatisticEpsilon(q, z, count, delta);
                return thorough && count > 1 ? Math.max(v, PoissonGaussianExact.sumStatisticEpsilon(q, z, count, delta)) : v;
            }
            if (leaf instanceof LaplaceEvent l && count == 1) {
                // δ(ε) = 1 − e^{(ε − ε0)/2} on [0, ε0): ε(δ) = ε0 + 2 ln(1 − δ), rounded down
                return (1 / l.noiseMultiplier() + 2 * Math.log1p(-delta)) * (1 - 1e-12) - 1e-12;
            }
            return 0;
        }, z -> PoissonGaussianExact.maxStatisticEpsilon(1, z, 1, delta));
    }

    /** A certified lower bound on δ(ε) of the normalized event (0 if none is known). */
    static double delta(DpEvent e, double epsilon) {
        return worst(e, (leaf, count) -> {
            if (leaf instanceof PoissonSampledEvent p && p.event() instanceof GaussianEvent g) {
                return PoissonGaussianExact.maxStatisticDelta(p.samplingProbability(), g.noiseMultiplier(), count, epsilon);
            }
            if (leaf instanceof LaplaceEvent l && count == 1 && epsilon < 1 / l.noiseMultiplier()) {
                return -Math.expm1((epsilon - 1 / l.noiseMultiplier()) / 2) * (1 - 1e-12);
            }
            return 0;
        }, z -> PoissonGaussianExact.maxStatisticDelta(1, z, 1, epsilon));
    }

    private interface PartBound {
        double of(DpEvent leaf, long count);
    }

    /**
     * The largest bound over the parts (worst part of a top-level parallel composition), the merged
     * Gaussian parts bounded by {@code gaussian} at their combined noise multiplier.
     */
    private static double worst(DpEvent e, PartBound part, java.util.function.DoubleUnaryOperator gaussian) {
        if (e instanceof ParallelComposedEvent par) {
            double w = 0;
            for (DpEvent p : par.events()) {
                w = Math.max(w, worst(DpEvents.normalize(p), part, gaussian));
            }
            return w;
        }
        double[] best = {0};
        double precision = gaussianPrecision(e);
        if (precision > 0 && Double.isFinite(precision)) {
            best[0] = gaussian.applyAsDouble(1 / Math.sqrt(precision));
        }
        forEachPart(e, (leaf, count) -> best[0] = Math.max(best[0], part.of(leaf, count)));
        return Math.max(0, best[0]);
    }

    private interface PartVisitor {
        void part(DpEvent leaf, long count);
    }

    /** The parts (leaf, count) of a normalized sequential composition. */
    private static void forEachPart(DpEvent e, PartVisitor v) {
        if (e instanceof ComposedEvent c) {
            for (DpEvent p : c.events()) {
                forEachPart(p, v);
            }
        } else if (e instanceof SelfComposedEvent s && !(s.event() instanceof ComposedEvent)) {
            v.part(s.event(), s.count());
        } else if (!(e instanceof SelfComposedEvent)) {
            v.part(e, 1);
        }
    }

    /** Σ count/z² over the Gaussian parts of a normalized event (Poisson with q = 1 included). */
    private static double gaussianPrecision(DpEvent e) {
        double[] sum = {0};
        forEachPart(e, (leaf, count) -> {
            DpEvent g = leaf instanceof PoissonSampledEvent p && p.samplingProbability() == 1.0 ? p.event() : leaf;
            if (g instanceof GaussianEvent ge) {
                sum[0] += count / (ge.noiseMultiplier() * ge.noiseMultiplier());
            }
        });
        return sum[0];
    }
}
