package org.dpopt.accounting;

import java.util.function.DoublePredicate;

/**
 * Bisection of a bracket [lo, hi] on a monotone predicate: the searches of the accountants and of
 * calibration all keep one end on each side of a threshold and halve the bracket until a width rule
 * holds, so that the end on the privacy-safe side can be returned.
 */
final class Bisection {
    private Bisection() {
    }

    /** When the bracket [lo, hi] is still too wide. */
    @FunctionalInterface
    interface Width {
        boolean tooWide(double lo, double hi);
    }

    /**
     * While {@code width.tooWide(lo, hi)} and at most {@code maxSteps} times: mid = (lo + hi)/2 replaces
     * hi if {@code toHi.test(mid)}, else lo. Returns the final {lo, hi}.
     */
    static double[] bracket(double lo, double hi, DoublePredicate toHi, Width width, int maxSteps) {
        for (int it = 0; it < maxSteps && width.tooWide(lo, hi); it++) {
            double mid = 0.5 * (lo + hi);
            if (toHi.test(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return new double[] {lo, hi};
    }

    /** As {@link #bracket} with no step limit. */
    static double[] bracket(double lo, double hi, DoublePredicate toHi, Width width) {
        return bracket(lo, hi, toHi, width, Integer.MAX_VALUE);
    }
}
