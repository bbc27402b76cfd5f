package org.dpopt.bench;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Registry of benchmark suites by name. To add one, add a line in the static block. */
public final class BenchSuites {
    private BenchSuites() {
    }

    private static final Map<String, BenchSuite> SUITES = new LinkedHashMap<>();

    static {
        add("dpsgd-epoch", new DpSgdEpochSuite());
        add("perf", new PerfSuite());
        add("perf-large", new LargeEpochSuite());
        add("real-data", new RealDataSuite());
        add("samplers", new SamplersSuite());
        add("smoothed-gradient", new SmoothedGradientSuite());
        add("pg-mirror-descent", new PgMirrorDescentSuite());
        add("fw-dimension", new FrankWolfeDimensionSuite());
        add("vr-fw-pass", new VrFrankWolfePassSuite());
        add("spark", new SparkSuite());
    }

    private static void add(String name, BenchSuite s) {
        SUITES.put(name, s);
    }

    /** All suites by name. */
    public static Map<String, BenchSuite> all() {
        return Collections.unmodifiableMap(SUITES);
    }
}
