package org.dpopt.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.Map;

/** One JSON object per command (Jackson). Non-finite doubles are written as strings. */
final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    private Json() {
    }

    static String write(Map<String, Object> m) {
        Map<String, Object> safe = new java.util.LinkedHashMap<>();
        m.forEach((k, v) -> safe.put(k, v instanceof Double dv && !Double.isFinite(dv) ? dv.toString() : v));
        try {
            return MAPPER.writeValueAsString(safe);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
