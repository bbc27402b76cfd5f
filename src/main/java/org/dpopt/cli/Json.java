package org.dpopt.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One JSON object per command (Jackson), keys in insertion order (callers build
 * {@link LinkedHashMap}s, so the order is fixed by the code, never by hashing).
 *
 * <p><b>Non-finite numbers</b> are never written as strings. A double value v under key k becomes
 * <ul>
 *   <li>v = +∞: {@code "k": null, "k_infinite": true} (e.g. ε of a non-private release);</li>
 *   <li>v = −∞: {@code "k": null, "k_infinite": "negative"};</li>
 *   <li>v = NaN (a quantity the method does not provide): {@code "k": null, "k_unavailable": true}.</li>
 * </ul>
 * The extra key directly follows k. The same rule applies inside nested objects; inside arrays a
 * non-finite element is written as {@code null}.
 */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private Json() {
    }

    /**
     * Loads and initialises the JSON writer (about 0.15 s of class loading in a fresh JVM) by writing a
     * small object and discarding it; a command calls it on another thread before its own work, so that
     * its output does not wait for it. Changes no output.
     */
    static void warmUp() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("s", "x");
        m.put("d", 0.5);
        m.put("l", List.of(1L));
        m.put("m", Map.of("b", true));
        write(m);
    }

    /** v if finite, else null. */
    static Double finiteOrNull(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /** Class labels (whole numbers stored as doubles) as integers, as model files and outputs list them. */
    static List<Long> labels(double[] classes) {
        List<Long> l = new ArrayList<>();
        for (double c : classes) {
            l.add((long) c);
        }
        return l;
    }

    /** Puts ε under key (null if infinite, with {@code key_infinite = true}). */
    static void putEpsilon(Map<String, Object> m, String key, double eps) {
        m.put(key, finiteOrNull(eps));
        if (eps == Double.POSITIVE_INFINITY) {
            m.put(key + "_infinite", true);
        }
    }

    static String write(Map<String, ?> m) {
        try {
            return MAPPER.writeValueAsString(safe(m));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The error object of the CLI contract: {"error": line, "parameter": name or null}. */
    static String error(String line, String parameter) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("error", line);
        m.put("parameter", parameter);
        return write(m);
    }

    private static Map<String, Object> safe(Map<String, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> {
            if (v instanceof Double d && !Double.isFinite(d)) {
                out.put(k, null);
                if (Double.isNaN(d)) {
                    out.put(k + "_unavailable", true);
                } else {
                    out.put(k + "_infinite", d > 0 ? (Object) Boolean.TRUE : "negative");
                }
            } else if (v instanceof Float f && !Float.isFinite(f)) {
                out.put(k, null);
                out.put(Float.isNaN(f) ? k + "_unavailable" : k + "_infinite", Float.isNaN(f) || f > 0 ? (Object) true : "negative");
            } else {
                out.put(k, element(v));
            }
        });
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Object element(Object v) {
        if (v instanceof Map<?, ?> map) {
            return safe((Map<String, ?>) map);
        }
        if (v instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object x : list) {
                out.add(x instanceof Double d && !Double.isFinite(d) ? null : element(x));
            }
            return out;
        }
        if (v instanceof double[] arr) {
            List<Object> out = new ArrayList<>(arr.length);
            for (double d : arr) {
                out.add(Double.isFinite(d) ? d : null);
            }
            return out;
        }
        return v;
    }
}
