package org.dpopt.accounting;

import java.util.List;

/**
 * Structural questions the accountants ask of a (normalized) event tree: does it contain a given
 * kind of release, is every release a no-op, is it made only of Gaussian releases (and then its
 * precision Σ T/z², since a composition of Gaussian mechanisms with noise multipliers z_i is exactly one
 * Gaussian mechanism with 1/z² = Σ 1/z_i²; Dong, Roth and Su, "Gaussian Differential Privacy", JRSS B,
 * 2022), and how many non-Gaussian releases it makes.
 */
final class EventShapes {
    private EventShapes() {
    }

    /** True if {@code type} occurs anywhere in the tree. */
    static boolean contains(DpEvent e, Class<? extends DpEvent> type) {
        return type.isInstance(e) || DpEvents.parts(e).orElse(List.of()).stream().anyMatch(x -> contains(x, type));
    }

    /** True if every release is a no-op (e.g. Poisson-sampled no-ops; an empty composition releases none). */
    static boolean allNoOp(DpEvent e) {
        return e instanceof NoOpEvent
                || DpEvents.parts(e).map(parts -> parts.stream().allMatch(EventShapes::allNoOp)).orElse(false);
    }

    /**
     * Σ count/z² if the event is made only of Gaussian releases (possibly Poisson-sampled with q = 1,
     * composed, self-composed); 0 otherwise (also for NoOp-only events).
     */
    static double gaussianPrecision(DpEvent e) {
        if (e instanceof GaussianEvent g) {
            return 1 / (g.noiseMultiplier() * g.noiseMultiplier());
        }
        if (e instanceof PoissonSampledEvent p && p.samplingProbability() == 1.0) {
            return gaussianPrecision(p.event());
        }
        if (e instanceof SelfComposedEvent s) {
            double inner = gaussianPrecision(s.event());
            return inner * s.count();
        }
        if (e instanceof ComposedEvent c) {
            double sum = 0;
            for (DpEvent part : c.events()) {
                if (part instanceof NoOpEvent) {
                    continue;
                }
                double p = gaussianPrecision(part);
                if (p == 0) {
                    return 0;
                }
                sum += p;
            }
            return sum;
        }
        return 0;
    }

    /** The number of non-Gaussian releases (the count that multiplies the floor-rounding drift). */
    static double releases(DpEvent e) {
        if (e instanceof SelfComposedEvent s) {
            return s.count() * releases(s.event());
        }
        if (e instanceof ComposedEvent c) {
            return sumOfReleases(c.events());
        }
        if (e instanceof ParallelComposedEvent p) {
            return sumOfReleases(p.events());
        }
        return e instanceof NoOpEvent || e instanceof GaussianEvent ? 0 : 1;
    }

    private static double sumOfReleases(List<DpEvent> parts) {
        double t = 0;
        for (DpEvent p : parts) {
            t += releases(p);
        }
        return t;
    }
}
