package org.dpopt.spark;

import java.io.Serializable;
import org.dpopt.data.CsvFields;
import org.dpopt.data.DatasetIO;
import org.dpopt.data.DatasetIO.RowNormPolicy;

/**
 * The per-line rules of {@link DatasetIO} for text rows on executors: CSV (numeric columns, label last,
 * a header allowed as a file's first non-blank line) and LIBSVM ({@code label idx:val …}, 1-based
 * indices at most the declared d, {@code #} comments), each row then projected onto (or checked
 * against) the declared ball with {@link DatasetIO#projectOntoBall}. Errors name the file and the line.
 *
 * @param libsvm true for LIBSVM lines, false for CSV
 * @param file the file's name, for errors
 * @param d the declared number of features
 * @param bound the declared row-norm bound
 * @param policy what a row beyond the bound gets (projection or refusal)
 */
record RowParser(boolean libsvm, String file, int d, double bound, RowNormPolicy policy) implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * A parsed row: where it came from, d features then the label, and whether it was projected.
     *
     * @param number the line (or row) number, 1-based
     * @param values the d features, then the label
     * @param projected true if the row was projected onto the declared ball
     */
    record Line(long number, double[] values, boolean projected) implements Serializable {
    }

    /**
     * One stripped, non-blank line: the row, or null for a header or comment.
     *
     * @param firstOfFile true for the file's first non-blank line (where a CSV header may stand)
     */
    Line parse(String t, long lineNo, boolean firstOfFile) {
        double[] v = libsvm ? libsvm(t, lineNo) : csv(t, lineNo, firstOfFile);
        return v == null ? null : project(v, file + " line " + lineNo, lineNo);
    }

    /** Projection (or refusal) of a row of d features and a label. */
    Line project(double[] v, String where, long number) {
        double norm = DatasetIO.projectOntoBall(v, d, bound, policy);
        if (norm > bound && policy == RowNormPolicy.REJECT) {
            throw new IllegalArgumentException("norm of " + where + " must be at most the declared row-norm bound "
                    + bound + " but was " + norm);
        }
        return new Line(number, v, norm > bound);
    }

    private double[] csv(String t, long lineNo, boolean firstOfFile) {
        double[] v = new double[CsvFields.count(t)];
        if (!CsvFields.parse(t, v)) {
            if (firstOfFile) {
                checkWidth(v.length, lineNo);
                return null; // header
            }
            throw new IllegalArgumentException(file + " line " + lineNo + " must be numeric but was '"
                    + abbreviate(t) + "'");
        }
        checkWidth(v.length, lineNo);
        for (int k = 0; k < v.length; k++) {
            if (!Double.isFinite(v[k])) {
                throw new IllegalArgumentException(file + " line " + lineNo + " column " + (k + 1)
                        + " must be finite but was " + v[k]);
            }
        }
        return v;
    }

    private void checkWidth(int width, long lineNo) {
        if (width != d + 1) {
            throw new IllegalArgumentException(file + " line " + lineNo + " must have " + (d + 1) + " columns but was "
                    + width);
        }
    }

    private double[] libsvm(String t, long lineNo) {
        if (t.startsWith("#")) {
            return null;
        }
        String[] parts = t.split("\\s+");
        double[] row = new double[d + 1];
        try {
            row[d] = finite(Double.parseDouble(parts[0]), lineNo);
            for (int k = 1; k < parts.length; k++) {
                int c = parts[k].indexOf(':');
                if (c < 0) {
                    throw new NumberFormatException(parts[k]);
                }
                int idx = Integer.parseInt(parts[k].substring(0, c));
                double val = finite(Double.parseDouble(parts[k].substring(c + 1)), lineNo);
                if (idx < 1) {
                    throw new IllegalArgumentException(file + " line " + lineNo
                            + " feature index must be at least 1 but was " + idx);
                }
                if (idx > d) {
                    throw new IllegalArgumentException(file + " line " + lineNo
                            + " feature index must be at most dimension " + d + " but was " + idx);
                }
                row[idx - 1] = val;
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(file + " line " + lineNo + " must be 'label index:value ...' but was '"
                    + abbreviate(t) + "'");
        }
        return row;
    }

    private double finite(double v, long lineNo) {
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException(file + " line " + lineNo + " values must be finite but was " + v);
        }
        return v;
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
