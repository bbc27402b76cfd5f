package org.dpopt.spark;

import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dpopt.linalg.Checks;

/**
 * The settings of {@code dpopt bench --suite spark}, from system properties: {@code dpopt.spark.rows} (n,
 * default 10⁶), {@code dpopt.spark.batches} (expected batch sizes, default 1000,10000,100000),
 * {@code dpopt.spark.master} (default local[2]), {@code dpopt.spark.side} ({@code both}, the default: both
 * engines in this process; {@code memory} or {@code spark}: one engine only, its results kept in the
 * output directory and put beside the other side's once both have run, so that at large n the two 8·n·d
 * byte copies never share a heap), {@code dpopt.spark.bystep} ({@code auto}: the shuffled by-step layout
 * is timed below n = 10⁷ only, as it needs a second, shuffled copy of the rows; {@code on}, {@code off})
 * and {@code dpopt.spark.parts} (row blocks; default: the local master's thread count, at least 2; both
 * sides must use the same). {@code --quick}: n = 2·10⁴, d = 20, B ∈ {100, 1000}, two repetitions.
 */
record SparkBenchOptions(long n, int d, int[] batches, int reps, String master, Side side, boolean byStep,
        int parts) {

    /** Rows from which the by-step layout is skipped under {@code auto}. */
    static final long BY_STEP_LIMIT = 10_000_000L;

    /** Which engines one process measures. */
    enum Side {
        BOTH, MEMORY, SPARK;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The settings from the system properties (and --quick). */
    static SparkBenchOptions of(boolean quick) {
        long n = quick ? 20_000 : Checks.atLeastOne("dpopt.spark.rows", Long.getLong("dpopt.spark.rows", 1_000_000L));
        int[] batches = quick ? new int[] {100, 1000} : Arrays.stream(System.getProperty("dpopt.spark.batches",
                "1000,10000,100000").split(",")).mapToInt(s -> Checks.atLeastOne("dpopt.spark.batches entry",
                        Integer.parseInt(s.trim()))).toArray();
        String master = System.getProperty("dpopt.spark.master", "local[2]");
        String bs = System.getProperty("dpopt.spark.bystep", "auto");
        boolean byStep = switch (bs) {
            case "auto" -> n < BY_STEP_LIMIT;
            case "on" -> true;
            case "off" -> false;
            default -> throw Checks.fail("dpopt.spark.bystep", "one of auto, on, off", bs);
        };
        int parts = Integer.getInteger("dpopt.spark.parts", localThreads(master));
        if (parts < 0) {
            throw Checks.fail("dpopt.spark.parts", "at least 1", parts);
        }
        return new SparkBenchOptions(n, quick ? 20 : 100, batches, quick ? 2 : 5, master,
                side(System.getProperty("dpopt.spark.side", "both")), byStep, parts);
    }

    static Side side(String s) {
        for (Side v : Side.values()) {
            if (v.label().equals(s)) {
                return v;
            }
        }
        throw Checks.fail("dpopt.spark.side", "one of both, memory, spark", s);
    }

    /** The row blocks of a local master: its threads, at least 2 (0 for other masters: ask the session). */
    static int localThreads(String master) {
        if (master.equals("local")) {
            return 2;
        }
        Matcher m = Pattern.compile("local\\[(\\*|\\d+)(,\\d+)?]").matcher(master);
        if (!m.matches()) {
            return 0;
        }
        int k = m.group(1).equals("*") ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(m.group(1));
        return Math.max(2, k);
    }
}
