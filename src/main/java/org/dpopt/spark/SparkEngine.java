package org.dpopt.spark;

import java.util.function.Supplier;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark session dpopt runs on, and the translation of task failures back into the exceptions the
 * in-memory path throws.
 *
 * <p>{@link #session(String)} reuses the active session if there is one (spark-submit, tests, a
 * notebook), else starts one: the given master, else the {@code spark.master} system property that
 * spark-submit sets, else {@code local[*]}. A local session binds to the loopback address and has no
 * web UI.
 */
public final class SparkEngine {
    private SparkEngine() {
    }

    /** The default master when none is given and spark-submit set none. */
    public static final String DEFAULT_MASTER = "local[*]";

    /** The active session, or a new one for master (null: spark-submit's, else {@link #DEFAULT_MASTER}). */
    public static synchronized SparkSession session(String master) {
        SparkSession active = SparkSession.getActiveSession().isDefined() ? SparkSession.getActiveSession().get()
                : SparkSession.getDefaultSession().isDefined() ? SparkSession.getDefaultSession().get() : null;
        if (active != null) {
            return active;
        }
        String m = master != null ? master : System.getProperty("spark.master", DEFAULT_MASTER);
        SparkSession.Builder b = SparkSession.builder().appName("dpopt").master(m)
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.sql.shuffle.partitions", "8");
        if (m.startsWith("local")) {
            b.config("spark.driver.bindAddress", "127.0.0.1").config("spark.driver.host", "127.0.0.1");
        }
        SparkSession s = b.getOrCreate();
        s.sparkContext().setLogLevel("WARN");
        return s;
    }

    /**
     * For the command line: Spark's own log lines about a failed task (the task's exception, already
     * reported as dpopt's one-line error) and its start-up notes are silenced; other warnings stay.
     */
    public static void quietTaskFailures() {
        Configurator.setLevel("org.apache.spark.executor.Executor", Level.OFF);
        Configurator.setLevel("org.apache.spark.scheduler.TaskSetManager", Level.OFF);
        Configurator.setLevel("org.apache.spark.util.Utils", Level.ERROR);
        Configurator.setLevel("org.apache.hadoop.util.NativeCodeLoader", Level.ERROR);
        Configurator.setLevel("org.apache.spark", Level.WARN);
    }

    /** The Java context of a session. */
    static JavaSparkContext context(SparkSession s) {
        return JavaSparkContext.fromSparkContext(s.sparkContext());
    }

    /**
     * Runs a Spark action; a task that failed with an {@link IllegalArgumentException} (bad input,
     * refused data) rethrows that exception on the driver, so callers see the in-memory path's message.
     */
    static <T> T call(Supplier<T> action) {
        try {
            return action.get();
        } catch (Exception e) { // Spark throws its checked SparkException undeclared
            IllegalArgumentException bad = find(e);
            if (bad != null) {
                throw new IllegalArgumentException(bad.getMessage(), e);
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static IllegalArgumentException find(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException iae && !(t.getCause() instanceof SparkException)) {
                return iae;
            }
        }
        // a task's exception can arrive as text only (e.g. from another JVM): keep its first line
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            int k = m == null ? -1 : m.indexOf("java.lang.IllegalArgumentException: ");
            if (k >= 0) {
                String rest = m.substring(k + "java.lang.IllegalArgumentException: ".length());
                int nl = rest.indexOf('\n');
                return new IllegalArgumentException(nl < 0 ? rest : rest.substring(0, nl));
            }
        }
        return null;
    }
}
