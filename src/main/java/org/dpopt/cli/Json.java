package org.dpopt.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.Map;

/**
 * One JSON object per command (Jackson), keys in insertion order. Non-finite numbers are never written
 * as strings: {@link #finiteOrNull} maps them to {@code null}, and {@link #putEpsilon} adds a
 * documented {@code <key>_infinite: true} field when ε = ∞ (a release with no guarantee).
 */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private Json() {
    }

    /** v if finite, else null. */
    static Double finiteOrNull(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /** Puts ε under key (null if infinite, with {@code key_infinite = true}). */
    static void putEpsilon(Map<String, Object> m, String key, double eps) {
        m.put(key, finiteOrNull(eps));
        if (eps == Double.POSITIVE_INFINITY) {
            m.put(key + "_infinite", true);
        }
    }

    static String write(Map<String, Object> m) {
        try {
            return MAPPER.writeValueAsString(sanitize(m));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object sanitize(Object v) {
        if (v instanceof Double d) {
            return Double.isFinite(d) ? d : null;
        }
        if (v instanceof Float f) {
            return Float.isFinite(f) ? f : null;
        }
        if (v instanceof Map<?, ?> m) {
            Map<Object, Object> out = new java.util.LinkedHashMap<>();
            m.forEach((k, x) -> out.put(k, sanitize(x)));
            return out;
        }
        if (v instanceof java.util.List<?> l) {
            java.util.List<Object> out = new java.util.ArrayList<>();
            l.forEach(x -> out.add(sanitize(x)));
            return out;
        }
        return v;
    }
}
