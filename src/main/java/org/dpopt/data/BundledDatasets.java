package org.dpopt.data;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.dpopt.linalg.Checks;

/**
 * The real datasets shipped as resources (breast_cancer, heart_scale, diabetes; sources in
 * {@code /datasets/SOURCES.md}), with their fixed train/test splits.
 */
public final class BundledDatasets {
    private BundledDatasets() {
    }

    /** Names of the bundled datasets. */
    public static final List<String> NAMES = List.of("breast_cancer", "heart_scale", "diabetes");

    /** The fixed split of a bundled dataset (rows in the unit ball; labels 0/1). */
    public static Splits.Split split(String name) {
        if (!NAMES.contains(name)) {
            throw Checks.fail("dataset", "one of " + NAMES, name);
        }
        Dataset all = DatasetIO.readCsvResource("/datasets/" + name + ".csv", 1.0,
                DatasetIO.RowNormPolicy.REJECT).dataset();
        InputStream in = BundledDatasets.class.getResourceAsStream("/datasets/" + name + "_test_rows.txt");
        if (in == null) {
            throw Checks.fail("test rows of " + name, "present on the class path", "missing");
        }
        int[] rows = DatasetIO.readRowIndices(new InputStreamReader(in, StandardCharsets.UTF_8));
        return Splits.byTestRows(all, rows);
    }
}
