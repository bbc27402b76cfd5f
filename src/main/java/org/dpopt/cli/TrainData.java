package org.dpopt.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.dpopt.data.Dataset;
import org.dpopt.data.DatasetIO;
import org.dpopt.data.Splits;
import org.dpopt.linalg.Checks;
import org.dpopt.noise.Rngs;
import picocli.CommandLine.Option;

/**
 * The data flags of {@code dpopt train} (a picocli mixin): the training file, the held-out rows (a file,
 * or a split of the training file by a public seed), the file format, the declared dimension and the
 * declared row-norm bound; and the in-memory read they describe.
 */
final class TrainData {
    /** The test fraction of a split when --test-fraction is not given. */
    static final double DEFAULT_TEST_FRACTION = 0.2;

    @Option(names = "--data", required = true, description = "Training data file (CSV: label last); with --engine "
            + "spark a file or a directory of part files.")
    Path data;
    @Option(names = "--test-data", description = "Held-out test file (else a split of --data).")
    Path testData;
    @Option(names = "--test-fraction", description = "Test fraction of a split of --data (default 0.2).")
    Double testFraction;
    @Option(names = "--split-seed", defaultValue = "1",
            description = "Public seed of the train/test split (default 1; not the noise seed).")
    long splitSeed;
    @Option(names = "--format", defaultValue = "csv", description = "csv, libsvm or parquet (default csv; parquet "
            + "with --engine spark).")
    String format;
    @Option(names = "--dimension", description = "Number of features d (required for libsvm: indices above it are "
            + "an error; never read off the data).")
    Integer dimension;
    @Option(names = "--row-norm-bound", defaultValue = "1.0",
            description = "Declared public bound on row L2 norms (default 1); longer rows are projected.")
    double rowNormBound;
    @Option(names = "--reject-long-rows", description = "Reject rows above the bound instead of projecting them.")
    boolean rejectLongRows;

    /** The training file as read, and the training and test rows (a file each, or a public-seed split). */
    record Inputs(DatasetIO.ReadResult read, Dataset train, Dataset test) {
    }

    /** What happens to a row longer than the bound. */
    DatasetIO.RowNormPolicy policy() {
        return rejectLongRows ? DatasetIO.RowNormPolicy.REJECT : DatasetIO.RowNormPolicy.PROJECT;
    }

    /** The test fraction of a split of --data. */
    double testFraction() {
        return testFraction != null ? testFraction : DEFAULT_TEST_FRACTION;
    }

    /** Refuses --test-fraction with --test-data. */
    void checkHeldOut() {
        if (testFraction != null && testData != null) {
            throw Checks.fail("--test-fraction", "absent when --test-data is given", testFraction);
        }
    }

    /**
     * The row counts of a run for its non-private diagnostics: the test rows here only for a split of
     * --data (with --test-data the release reports them).
     */
    Map<String, Object> counts(long trainRows, long projectedRows, long testRows) {
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("train_rows", trainRows);
        counts.put("projected_rows", projectedRows);
        if (testData == null) {
            counts.put("test_rows", testRows);
        }
        return counts;
    }

    /** Reads the rows into memory. */
    Inputs read() {
        DatasetIO.RowNormPolicy policy = policy();
        DatasetIO.ReadResult trainRead = read(data, policy);
        if (testData != null) {
            Dataset test = read(testData, policy).dataset();
            if (test.dimension() != trainRead.dataset().dimension()) {
                throw Checks.fail("number of features in --test-data", "equal to the training data's "
                        + trainRead.dataset().dimension(), test.dimension());
            }
            return new Inputs(trainRead, trainRead.dataset(), test);
        }
        Splits.Split s = Splits.random(trainRead.dataset(), testFraction(), Rngs.seeded(splitSeed));
        return new Inputs(trainRead, s.train(), s.test());
    }

    private DatasetIO.ReadResult read(Path f, DatasetIO.RowNormPolicy policy) {
        if (!Files.isRegularFile(f)) {
            throw Checks.fail("data file", "an existing file", f);
        }
        switch (format) {
            case "csv": {
                DatasetIO.ReadResult r = DatasetIO.readCsv(f, rowNormBound, policy);
                if (dimension != null && r.dataset().dimension() != dimension) {
                    throw Checks.fail("number of features in " + f, "the declared --dimension " + dimension,
                            r.dataset().dimension());
                }
                return r;
            }
            case "libsvm":
                if (dimension == null) {
                    throw Checks.fail("--dimension", "given for --format libsvm (the number of features is a public "
                            + "declaration, never the largest index in the file)", "absent");
                }
                return DatasetIO.readLibsvm(f, Checks.atLeastOne("--dimension", dimension), rowNormBound, policy);
            default:
                throw Checks.fail("--format", "csv or libsvm", format);
        }
    }
}
