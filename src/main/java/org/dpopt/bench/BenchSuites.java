package org.dpopt.bench;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Registry of benchmark suites. To add one, add a line in the static block. */
public final class BenchSuites {
    private BenchSuites() {
    }

    private static final Map<String, BenchSuite> SUITES = new LinkedHashMap<>();

    static {
        add(new DpSgdEpochSuite());
        add(new PerfSuite());
        add(new LargeEpochSuite());
        add(new RealDataSuite());
        add(new SamplersSuite());
        add(new SmoothedGradientSuite());
        add(new PgMirrorDescentSuite());
        add(new FrankWolfeDimensionSuite());
        add(new VrFrankWolfePassSuite());
        add(new SparkSuite());
    }

    private static void add(BenchSuite s) {
        SUITES.put(s.name(), s);
    }

    /** All suites by name. */
    public static Map<String, BenchSuite> all() {
        return Collections.unmodifiableMap(SUITES);
    }
}
