package org.dpopt.cli;

import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpopt.data.Dataset;
import org.dpopt.linalg.Checks;
import org.dpopt.spark.LabelSummary;
import org.dpopt.spark.SparkTraining;

/**
 * The in-memory label checks of {@code dpopt train} run on the labels of rows held by Spark: each distinct
 * label once, in order of first appearance, stands in for the rows. Every check the command makes (binary
 * encoding, k-class labels, implied class count, two classes) passes or fails on such a stand-in exactly
 * as on the rows, at the first appearance of the same offending label; a message's row numbers and row
 * count are mapped back to the rows'.
 */
final class SparkLabels {
    private static final Pattern ROW = Pattern.compile("row (\\d+)");

    private final LabelSummary summary;
    private final Dataset standIn;

    private SparkLabels(LabelSummary summary, Dataset standIn) {
        this.summary = summary;
        this.standIn = standIn;
    }

    /**
     * The stand-in for a summary. On overflow (more distinct values than the Spark engine reads) there is
     * none: a classification loss is refused, a regression loss checks no labels.
     *
     * @param classification true if a classification loss may be chosen (given, or the default)
     * @param source the rows' name in messages
     */
    static SparkLabels of(LabelSummary summary, boolean classification, String source) {
        if (summary.overflow()) {
            if (classification) {
                throw Checks.fail("labels of " + source, "at most " + SparkTraining.LABEL_CAP + " distinct values "
                        + "for a classification loss on Spark", "more");
            }
            return new SparkLabels(summary, Dataset.of(new double[][] {{0}}, new double[] {0}, 1));
        }
        double[] v = summary.values();
        return new SparkLabels(summary, Dataset.of(new double[v.length][1], v, 1));
    }

    /** The stand-in rows (one per distinct label; zero features). */
    Dataset rows() {
        return standIn;
    }

    /** Runs a check on the stand-in; a refusal names the rows' own row numbers and count. */
    void check(Consumer<Dataset> check) {
        try {
            check.accept(standIn);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(mapBack(e.getMessage()), e);
        }
    }

    /** A message about the stand-in, about the rows: "row k" → the k-th label's first row; the row count. */
    String mapBack(String message) {
        long[] ids = summary.firstIds();
        Matcher m = ROW.matcher(message);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            int k = Integer.parseInt(m.group(1));
            m.appendReplacement(out, "row " + (k < ids.length ? ids[k] : k));
        }
        m.appendTail(out);
        return out.toString().replace(" in " + standIn.size() + " rows", " in " + summary.rows() + " rows");
    }
}
