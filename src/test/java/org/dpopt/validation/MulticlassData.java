package org.dpopt.validation;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.dpopt.data.Dataset;
import org.dpopt.data.DatasetIO;
import org.dpopt.data.Splits;
import org.dpopt.linalg.Checks;

/**
 * The multiclass test resources ({@code /multiclass/}: digits and wine with their fixed stratified 80/20
 * splits; sources in {@code /multiclass/SOURCES.md}).
 */
public final class MulticlassData {
    private MulticlassData() {
    }

    /** The fixed split of {@code digits} or {@code wine} (rows in the unit ball, labels 0..k−1). */
    public static Splits.Split split(String name) {
        if (!name.equals("digits") && !name.equals("wine")) {
            throw Checks.fail("multiclass dataset", "digits or wine", name);
        }
        Dataset all = DatasetIO.readCsvResource("/multiclass/" + name + ".csv", 1.0, DatasetIO.RowNormPolicy.REJECT)
                .dataset();
        InputStream in = MulticlassData.class.getResourceAsStream("/multiclass/" + name + "_test_rows.txt");
        Checks.notNull("test rows of " + name, in);
        int[] rows = DatasetIO.readRowIndices(new InputStreamReader(in, StandardCharsets.UTF_8));
        return Splits.byTestRows(all, rows);
    }
}
