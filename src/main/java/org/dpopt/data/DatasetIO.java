package org.dpopt.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dpopt.linalg.Checks;

/**
 * Reading datasets: CSV (numeric columns, label last, optional header) and LIBSVM sparse format
 * (read into dense).
 *
 * <p>Rows whose ℓ2 norm exceeds the declared bound are handled by a {@link RowNormPolicy}:
 * {@code REJECT} throws, {@code PROJECT} rescales such a row onto the ball of radius R. Projection is
 * a per-row map that does not look at other rows, so it is compatible with differential privacy;
 * it is <em>not</em> feature scaling (which would use data statistics and is not private).
 */
public final class DatasetIO {
    private DatasetIO() {
    }

    /** What to do with a row whose norm exceeds the declared bound. */
    public enum RowNormPolicy {
        /** Throw {@link IllegalArgumentException} naming the row. */
        REJECT,
        /** Rescale the row to norm R (x ← x·R/‖x‖). */
        PROJECT
    }

    /** The result of a read: the dataset and how many rows were projected. */
    public record ReadResult(Dataset dataset, int projectedRows) {
    }

    /** Reads a CSV file with unit row-norm bound, rejecting rows outside the unit ball. */
    public static Dataset readCsv(Path path) {
        return readCsv(path, 1.0, RowNormPolicy.REJECT).dataset();
    }

    /** Reads a CSV file. */
    public static ReadResult readCsv(Path path, double rowNormBound, RowNormPolicy policy) {
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            return readCsv(r, path.toString(), rowNormBound, policy);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    /** Reads a CSV resource from the class path (for bundled datasets). */
    public static ReadResult readCsvResource(String resource, double rowNormBound, RowNormPolicy policy) {
        InputStream in = DatasetIO.class.getResourceAsStream(resource);
        if (in == null) {
            throw Checks.fail("resource", "present on the class path", resource);
        }
        try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            return readCsv(r, resource, rowNormBound, policy);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads CSV text: comma-separated numbers, label in the last column; a first line that does not
     * parse as numbers is taken as a header. Blank lines are skipped; a leading byte-order mark and CRLF
     * line ends are accepted.
     */
    public static ReadResult readCsv(Reader reader, String source, double rowNormBound, RowNormPolicy policy) {
        Checks.positive("rowNormBound", rowNormBound);
        List<double[]> rows = new ArrayList<>();
        int width = parseCsv(reader, source, rows);
        if (width < 2) {
            throw new IllegalArgumentException(source + " must be a table of at least 2 columns (features, label) but was "
                    + width + " column" + (width == 1 ? "" : "s") + " wide");
        }
        return build(rows, width - 1, rowNormBound, policy, source);
    }

    /**
     * Reads the rows of a CSV file for a model with d features: d + 1 columns are features and a label
     * (label last), d columns are features only (the result's labels are then all 0 and
     * {@code labelled} is false). Rows longer than R are projected onto the R-ball.
     *
     * @param dimension d ≥ 1, the model's number of features
     */
    public static FeatureRead readCsvFeatures(Path path, int dimension, double rowNormBound) {
        Checks.atLeastOne("dimension", dimension);
        Checks.positive("rowNormBound", rowNormBound);
        List<double[]> rows = new ArrayList<>();
        int width;
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            width = parseCsv(r, path.toString(), rows);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
        }
        if (width != dimension && width != dimension + 1) {
            throw Checks.fail("number of columns of " + path, dimension + " (features) or " + (dimension + 1)
                    + " (features, label last) for a model with " + dimension + " features", width);
        }
        boolean labelled = width == dimension + 1;
        if (!labelled) {
            rows.replaceAll(r -> java.util.Arrays.copyOf(r, dimension + 1));
        }
        ReadResult rr = build(rows, dimension, rowNormBound, RowNormPolicy.PROJECT, path.toString());
        return new FeatureRead(rr.dataset(), labelled, rr.projectedRows());
    }

    /**
     * Rows read for prediction.
     *
     * @param dataset the rows (labels all 0 when the file had none)
     * @param labelled true if the file had a label column
     * @param projectedRows how many rows were projected onto the R-ball
     */
    public record FeatureRead(Dataset dataset, boolean labelled, int projectedRows) {
    }

    /**
     * A dataset from in-memory rows with a declared bound R: rows longer than R are projected (or
     * rejected), as when reading a file. Not modified: x, y.
     */
    public static ReadResult fromRows(double[][] x, double[] y, double rowNormBound, RowNormPolicy policy) {
        Checks.notNull("x", x);
        Checks.notNull("y", y);
        Checks.positive("rowNormBound", rowNormBound);
        if (x.length < 1 || x.length != y.length) {
            throw Checks.fail("number of rows of x", "at least 1 and equal to the number of labels " + y.length,
                    x.length);
        }
        int d = x[0].length;
        List<double[]> rows = new ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            if (x[i].length != d) {
                throw Checks.fail("length of row " + i + " of x", "equal to " + d, x[i].length);
            }
            double[] r = java.util.Arrays.copyOf(x[i], d + 1);
            r[d] = y[i];
            for (double v : r) {
                if (!Double.isFinite(v)) {
                    throw Checks.fail("entries of row " + i, "finite", v);
                }
            }
            rows.add(r);
        }
        return build(rows, d, rowNormBound, policy, "x");
    }

    /** Parses CSV rows into {@code rows}; returns the number of columns. */
    private static int parseCsv(Reader reader, String source, List<double[]> rows) {
        int width = -1;
        try (BufferedReader br = new BufferedReader(reader)) {
            String line;
            int lineNo = 0;
            while ((line = br.readLine()) != null) {
                lineNo++;
                if (lineNo == 1 && line.startsWith("\uFEFF")) {
                    line = line.substring(1); // a UTF-8 byte-order mark is not part of the first cell
                }
                String t = line.strip();
                if (t.isEmpty()) {
                    continue;
                }
                int fields = CsvFields.count(t);
                double[] v = new double[fields];
                if (!CsvFields.parse(t, v)) {
                    if (rows.isEmpty() && width < 0) {
                        width = fields; // header
                        continue;
                    }
                    throw new IllegalArgumentException(source + " line " + lineNo
                            + " must be numeric but was '" + abbreviate(t) + "'");
                }
                if (width < 0) {
                    width = fields;
                }
                if (fields != width) {
                    throw new IllegalArgumentException(source + " line " + lineNo + " must be "
                            + width + " columns wide but was " + fields + " columns");
                }
                for (int k = 0; k < v.length; k++) {
                    if (!Double.isFinite(v[k])) {
                        throw new IllegalArgumentException(source + " line " + lineNo + " column "
                                + (k + 1) + " must be finite but was " + v[k]);
                    }
                }
                rows.add(v);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(source + " must be a file with at least one data row but was empty");
        }
        return width;
    }

    /** Refuses a LIBSVM line that names a feature twice (which value would count is ambiguous). */
    private static void requireDistinct(int[] idx, Path path, int lineNo) {
        int[] sorted = idx.clone();
        java.util.Arrays.sort(sorted);
        for (int k = 1; k < sorted.length; k++) {
            if (sorted[k] == sorted[k - 1]) {
                throw Checks.fail("feature indices of " + path + " line " + lineNo, "distinct", "index "
                        + sorted[k] + " twice");
            }
        }
    }

    /**
     * Refuses a dense n × d matrix that would not fit in a quarter of the heap (it is copied once more when
     * the dataset is built), before allocating it.
     */
    private static void requireDenseFits(Path path, long rows, long dimension) {
        long limit = Runtime.getRuntime().maxMemory() / 4;
        double bytes = 8.0 * rows * (dimension + 1);
        if (bytes > limit) {
            throw Checks.fail("dense matrix of " + path + " (" + rows + " rows x " + dimension + " features)",
                    String.format("at most %d MB, a quarter of this JVM's heap (declare a smaller --dimension or "
                            + "raise -Xmx)", limit >> 20), String.format("%.0f MB", bytes / (1 << 20)));
        }
    }

    /**
     * Reads LIBSVM sparse format ({@code label idx:val idx:val ...}, 1-based indices) into a dense
     * dataset of the <em>declared</em> dimension: the number of features is a public constant, never the
     * largest index present (one record with a unique index would otherwise change the model's length).
     *
     * @param dimension d ≥ 1; an index above it is an error naming the line
     */
    public static ReadResult readLibsvm(Path path, int dimension, double rowNormBound, RowNormPolicy policy) {
        Checks.atLeastOne("dimension", dimension);
        Checks.positive("rowNormBound", rowNormBound);
        List<SparseRow> sparse = new ArrayList<>();
        int maxIndex = 0;
        try (BufferedReader br = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            String line;
            int lineNo = 0;
            while ((line = br.readLine()) != null) {
                lineNo++;
                String t = (lineNo == 1 && line.startsWith("\uFEFF") ? line.substring(1) : line).strip();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                SparseRow r = libsvmLine(t, path, lineNo);
                for (int i : r.indices()) {
                    maxIndex = Math.max(maxIndex, i);
                }
                sparse.add(r);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path + ": " + e.getMessage(), e);
        }
        if (sparse.isEmpty()) {
            throw new IllegalArgumentException(path + " must be a file with at least one data row but was empty");
        }
        int d = dimension;
        if (maxIndex > d) {
            throw Checks.fail("largest feature index in " + path, "at most dimension " + d, maxIndex);
        }
        requireDenseFits(path, sparse.size(), d);
        List<double[]> rows = new ArrayList<>();
        for (SparseRow r : sparse) {
            rows.add(r.dense(d));
        }
        return build(rows, d, rowNormBound, policy, path.toString());
    }

    /** One LIBSVM line: the label {@code values[0]}, then {@code values[k]} at 1-based index {@code indices[k - 1]}. */
    private record SparseRow(double[] values, int[] indices) {

        /** The dense row (features, then the label) of dimension d ≥ every index. */
        double[] dense(int d) {
            double[] row = new double[d + 1];
            for (int k = 0; k < indices.length; k++) {
                row[indices[k] - 1] = values[k + 1];
            }
            row[d] = values[0];
            return row;
        }
    }

    /** Parses and checks one non-empty, non-comment line (indices ≥ 1 and distinct, values finite). */
    private static SparseRow libsvmLine(String t, Path path, int lineNo) {
        String[] parts = t.split("\\s+");
        double[] vals = new double[parts.length];
        int[] idx = new int[parts.length - 1];
        try {
            vals[0] = Double.parseDouble(parts[0]);
            for (int k = 1; k < parts.length; k++) {
                int c = parts[k].indexOf(':');
                if (c < 0) {
                    throw new NumberFormatException(parts[k]);
                }
                idx[k - 1] = Integer.parseInt(parts[k].substring(0, c));
                vals[k] = Double.parseDouble(parts[k].substring(c + 1));
                if (idx[k - 1] < 1) {
                    throw new IllegalArgumentException(path + " line " + lineNo
                            + " feature index must be at least 1 but was " + idx[k - 1]);
                }
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(path + " line " + lineNo
                    + " must be 'label index:value ...' but was '" + abbreviate(t) + "'");
        }
        requireDistinct(idx, path, lineNo);
        for (double v : vals) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException(path + " line " + lineNo + " values must be finite but was " + v);
            }
        }
        return new SparseRow(vals, idx);
    }

    private static ReadResult build(List<double[]> rows, int d, double bound, RowNormPolicy policy, String source) {
        int n = rows.size();
        double[][] x = new double[n][d];
        double[] y = new double[n];
        int projected = 0;
        for (int i = 0; i < n; i++) {
            double[] r = rows.get(i);
            System.arraycopy(r, 0, x[i], 0, d);
            y[i] = r[d];
            double norm = projectOntoBall(x[i], d, bound, policy);
            if (!Double.isFinite(norm)) {
                throw Checks.fail("norm of row " + i + " in " + source, "finite (the squares of its values overflow a "
                        + "double; rescale the features)", norm);
            }
            if (norm > bound) {
                if (policy == RowNormPolicy.REJECT) {
                    throw new IllegalArgumentException("norm of row " + i + " in " + source
                            + " must be at most the declared row-norm bound " + bound + " but was " + norm);
                }
                projected++;
            }
        }
        return new ReadResult(Dataset.of(x, y, bound), projected);
    }

    /**
     * The per-row rule every reader applies (in memory and on Spark alike, so rows come out bit for bit
     * the same): with ‖x‖ = √(Σ_j x_j²) over x[0..d), a row with ‖x‖ &gt; R is rescaled by
     * R/(‖x‖(1 + 10⁻¹²)) under {@code PROJECT} (a hair below the bound, so that re-computing the norm
     * cannot exceed it) and left alone under {@code REJECT} (the caller refuses it). A per-row map that
     * looks at no other row. Modified: x (PROJECT only).
     *
     * @return ‖x‖ before any rescaling
     */
    public static double projectOntoBall(double[] x, int d, double bound, RowNormPolicy policy) {
        double s = 0;
        for (int j = 0; j < d; j++) {
            s += x[j] * x[j];
        }
        double norm = Math.sqrt(s);
        if (norm > bound && policy == RowNormPolicy.PROJECT) {
            double f = bound / (norm * (1 + 1e-12));
            for (int j = 0; j < d; j++) {
                x[j] *= f;
            }
        }
        return norm;
    }

    /** Reads a list of 0-based row indices, one per line (the {@code *_test_rows.txt} format). */
    public static int[] readRowIndices(Reader reader) {
        List<Integer> out = new ArrayList<>();
        try (BufferedReader br = new BufferedReader(reader)) {
            String line;
            while ((line = br.readLine()) != null) {
                String t = line.strip();
                if (!t.isEmpty()) {
                    out.add(Integer.parseInt(t));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
