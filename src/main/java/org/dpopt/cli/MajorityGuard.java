package org.dpopt.cli;

import java.util.HashMap;
import java.util.Map;
import org.dpopt.data.Dataset;

/**
 * The guard against useless classifiers in {@code dpopt train}: the majority-class rate of the test
 * labels, printed next to the test accuracy, and a one-line hint naming the knobs that matter for the
 * algorithm when the model is no better than always answering the most frequent test label.
 *
 * <p>Both numbers come from the held-out test rows, never from the private training set, so they are
 * held-out metrics like the accuracy itself (not covered by the guarantee, and costing it nothing).
 */
final class MajorityGuard {
    private MajorityGuard() {
    }

    /** The fraction of the rows whose label is the most frequent one (0 for no rows). */
    static double majorityRate(Dataset test) {
        if (test.size() == 0) {
            return 0;
        }
        Map<Double, Integer> counts = new HashMap<>();
        int best = 0;
        for (int i = 0; i < test.size(); i++) {
            best = Math.max(best, counts.merge(test.label(i), 1, Integer::sum));
        }
        return (double) best / test.size();
    }

    /** The majority-class rate from label counts over {@code rows} rows (0 for no rows). */
    static double majorityRate(Map<Double, Long> counts, long rows) {
        long best = 0;
        for (long c : counts.values()) {
            best = Math.max(best, c);
        }
        return rows == 0 ? 0 : (double) best / rows;
    }

    /**
     * The hint for a model no better than the majority class, or null when it is better.
     *
     * @param accuracy the test accuracy
     * @param majority the majority-class rate of the test labels
     * @param alg the algorithm
     */
    static String hint(double accuracy, double majority, AlgorithmSpec alg) {
        return hint(accuracy, majority, alg, false);
    }

    /**
     * As {@link #hint(double, double, AlgorithmSpec)}; {@code constantReleased} says the constant check
     * released a constant classifier, which the hint then names first.
     */
    static String hint(double accuracy, double majority, AlgorithmSpec alg, boolean constantReleased) {
        if (accuracy > majority) {
            return null;
        }
        String lead = constantReleased ? "the constant check released a constant classifier (the trained one's "
                + "noisy count of correct training labels was lower): " : "";
        return lead + "test accuracy " + String.format(java.util.Locale.ROOT, "%.4f", accuracy)
                + " is no better than the majority-class rate " + String.format(java.util.Locale.ROOT, "%.4f", majority)
                + " of the test labels; for " + alg.name() + " try " + alg.hint()
                + " (or a larger epsilon or more training rows)";
    }
}
