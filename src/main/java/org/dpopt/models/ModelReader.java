package org.dpopt.models;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dpopt.linalg.Checks;

/**
 * Builds a {@link Model} from a parsed model file, refusing (with the field's name and the file) every
 * missing, mistyped or inconsistent field; the model's constructor then checks the invariants between
 * fields.
 */
final class ModelReader {
    private ModelReader() {
    }

    static Model fromMap(Fields f) {
        String format = f.string("format");
        if (!ModelFormat.FORMAT.equals(format)) {
            throw Checks.fail(f.name("format"), "\"" + ModelFormat.FORMAT + "\" (not a dpopt model file)", format);
        }
        long version = f.integer("format_version");
        if (version < 1 || version > ModelFormat.FORMAT_VERSION) {
            throw Checks.fail(f.name("format_version"), "between 1 and " + ModelFormat.FORMAT_VERSION
                    + " (the versions this dpopt reads)", version);
        }
        Model.Kind kind = kind(f);
        double[][] weights = f.matrix("weights");
        long d = f.integer("dimension");
        if (weights.length > 0 && weights[0].length != d) {
            throw Checks.fail(f.name("weights[0]"), "of length \"dimension\" = " + d, weights[0].length);
        }
        boolean fit = f.bool("fit_intercept");
        double scale = f.real("intercept_scale");
        if (fit != scale > 0) {
            throw Checks.fail(f.name("intercept_scale"), fit ? "positive when fit_intercept is true"
                    : "0 when fit_intercept is false", scale);
        }
        Fields p = f.object("privacy");
        ModelPrivacy privacy = new ModelPrivacy(p.realOrInfinite("epsilon"), p.realOrInfinite("epsilon_lower"),
                p.realOrNull("delta"), p.string("accountant"), p.string("relation"), p.string("bound"), p.string("event"),
                p.strings("notes"), f.string("noise"));
        if (Double.isNaN(privacy.epsilon())) {
            throw Checks.fail(p.name("epsilon"), "a number, or null with epsilon_infinite: true", "null");
        }
        boolean claimed = f.bool("private");
        if (claimed != privacy.isPrivate()) {
            throw Checks.fail(f.name("private"), privacy.isPrivate() + " (finite epsilon and secure noise)", claimed);
        }
        return new Model(kind, f.string("loss"), f.string("link"), f.reals("classes"), weights, f.reals("intercept"),
                scale, f.real("row_norm_bound"), f.string("algorithm"), f.object("parameters").map(),
                privacy, f.string("dpopt_version"), f.source());
    }

    private static Model.Kind kind(Fields f) {
        String k = f.string("kind");
        for (Model.Kind v : Model.Kind.values()) {
            if (v.name().toLowerCase(Locale.ROOT).equals(k)) {
                return v;
            }
        }
        throw Checks.fail(f.name("kind"), "binary, multinomial or regression", k);
    }

    /** Typed access to the members of one JSON object of a model file. */
    static final class Fields {
        private final Map<?, ?> map;
        private final String source;
        private final String path;

        Fields(Object value, String source) {
            this(value, source, "");
        }

        private Fields(Object value, String source, String path) {
            this.source = source;
            this.path = path;
            if (!(value instanceof Map<?, ?> m)) {
                throw Checks.fail(path.isEmpty() ? "content of " + source : name0(path), "a JSON object", kindOf(value));
            }
            this.map = m;
        }

        String source() {
            return source;
        }

        String name(String key) {
            return name0(path + key);
        }

        private String name0(String key) {
            return ModelFormat.of(key, source);
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> map() {
            return (Map<String, Object>) map;
        }

        private Object get(String key) {
            if (!map.containsKey(key)) {
                throw Checks.fail(name(key), "present", "missing");
            }
            return map.get(key);
        }

        private <T> T member(String key, Class<T> type, String what) {
            Object v = get(key);
            if (!type.isInstance(v)) {
                throw Checks.fail(name(key), what, kindOf(v));
            }
            return type.cast(v);
        }

        String string(String key) {
            return member(key, String.class, "a string");
        }

        boolean bool(String key) {
            return member(key, Boolean.class, "true or false");
        }

        long integer(String key) {
            return member(key, Long.class, "an integer");
        }

        double real(String key) {
            return member(key, Number.class, "a number").doubleValue();
        }

        /** A number, or null meaning NaN (no value). */
        double realOrNull(String key) {
            return get(key) == null ? Double.NaN : real(key);
        }

        /** A number, or null with {@code key_infinite: true} meaning +∞, or null alone meaning NaN. */
        double realOrInfinite(String key) {
            if (get(key) != null) {
                return real(key);
            }
            Object inf = map.get(key + "_infinite");
            return Boolean.TRUE.equals(inf) ? Double.POSITIVE_INFINITY : Double.NaN;
        }

        Fields object(String key) {
            return new Fields(get(key), source, path + key + ".");
        }

        private List<?> list(String key) {
            Object v = get(key);
            if (v instanceof List<?> l) {
                return l;
            }
            throw Checks.fail(name(key), "an array", kindOf(v));
        }

        double[] reals(String key) {
            List<?> l = list(key);
            double[] out = new double[l.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = element(l, i, key, Number.class, "a number").doubleValue();
            }
            return out;
        }

        List<String> strings(String key) {
            List<?> l = list(key);
            List<String> out = new ArrayList<>();
            for (int i = 0; i < l.size(); i++) {
                out.add(element(l, i, key, String.class, "a string"));
            }
            return out;
        }

        private <T> T element(List<?> l, int i, String key, Class<T> type, String what) {
            Object v = l.get(i);
            if (!type.isInstance(v)) {
                throw Checks.fail(name(key + "[" + i + "]"), what, kindOf(v));
            }
            return type.cast(v);
        }

        double[][] matrix(String key) {
            List<?> l = list(key);
            double[][] out = new double[l.size()][];
            for (int c = 0; c < out.length; c++) {
                if (!(l.get(c) instanceof List<?> row)) {
                    throw Checks.fail(name(key + "[" + c + "]"), "an array of numbers", kindOf(l.get(c)));
                }
                out[c] = new double[row.size()];
                for (int j = 0; j < row.size(); j++) {
                    if (!(row.get(j) instanceof Number n)) {
                        throw Checks.fail(name(key + "[" + c + "][" + j + "]"), "a number", kindOf(row.get(j)));
                    }
                    out[c][j] = n.doubleValue();
                }
            }
            return out;
        }

        private static String kindOf(Object v) {
            if (v == null) {
                return "null";
            }
            if (v instanceof Map) {
                return "an object";
            }
            if (v instanceof List) {
                return "an array";
            }
            if (v instanceof String s) {
                return "\"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
            }
            return String.valueOf(v);
        }
    }
}
