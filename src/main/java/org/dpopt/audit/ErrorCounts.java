package org.dpopt.audit;

import org.dpopt.linalg.Checks;

/**
 * The outcome of one threshold test on the evaluation runs: the test says "canary present" when a
 * run's score exceeds the threshold. Positives are runs on the dataset with the canary, negatives
 * runs without it.
 *
 * @param truePositives runs with the canary declared present
 * @param falseNegatives runs with the canary declared absent
 * @param trueNegatives runs without the canary declared absent
 * @param falsePositives runs without the canary declared present
 */
public record ErrorCounts(long truePositives, long falseNegatives, long trueNegatives, long falsePositives) {

    /** Validates: all counts ≥ 0, at least one run of each kind. */
    public ErrorCounts {
        for (long c : new long[] {truePositives, falseNegatives, trueNegatives, falsePositives}) {
            if (c < 0) {
                throw Checks.fail("count", "non-negative", c);
            }
        }
        Checks.atLeastOne("runs with the canary", truePositives + falseNegatives);
        Checks.atLeastOne("runs without the canary", trueNegatives + falsePositives);
    }

    /** Runs with the canary. */
    public long positives() {
        return truePositives + falseNegatives;
    }

    /** Runs without the canary. */
    public long negatives() {
        return trueNegatives + falsePositives;
    }

    /** The observed false-positive rate. */
    public double falsePositiveRate() {
        return (double) falsePositives / negatives();
    }

    /** The observed false-negative rate. */
    public double falseNegativeRate() {
        return (double) falseNegatives / positives();
    }

    /**
     * Counts the errors of the test "score &gt; threshold" on scores of runs with (positives) and without
     * (negatives) the canary.
     */
    public static ErrorCounts of(double[] withCanary, double[] withoutCanary, double threshold) {
        long tp = 0;
        for (double s : withCanary) {
            if (s > threshold) {
                tp++;
            }
        }
        long fp = 0;
        for (double s : withoutCanary) {
            if (s > threshold) {
                fp++;
            }
        }
        return new ErrorCounts(tp, withCanary.length - tp, withoutCanary.length - fp, fp);
    }
}
