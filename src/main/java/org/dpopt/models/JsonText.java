package org.dpopt.models;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dpopt.linalg.Checks;

/**
 * A small strict JSON (RFC 8259) reader and writer for the model file, so that the library needs no
 * JSON dependency. Values are {@code Map<String, Object>} (key order kept), {@code List<Object>},
 * {@code String}, {@code Long} (an integer literal of at most 18 characters), {@code Double} (any other
 * number), {@code Boolean} and {@code null}. Non-finite numbers
 * cannot be written (JSON has none): the model format writes null plus a documented flag instead.
 */
final class JsonText {
    private final String text;
    private final String source;
    private int pos;

    private JsonText(String text, String source) {
        this.text = text;
        this.source = source;
    }

    /**
     * Parses one JSON value that makes up the whole text.
     *
     * @throws IllegalArgumentException naming the character offset of the first error
     */
    static Object parse(String text, String source) {
        Checks.notNull("text", text);
        JsonText p = new JsonText(text, source);
        p.skipSpace();
        Object v = p.value(0);
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("the end of the JSON text");
        }
        return v;
    }

    private IllegalArgumentException error(String expected) {
        String found = pos < text.length() ? "'" + text.charAt(pos) + "' at offset " + pos : "the end of the text";
        return Checks.fail("JSON text of " + source, expected, found);
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            pos++;
        }
    }

    private Object value(int depth) {
        if (depth > 64) {
            throw error("nested at most 64 deep");
        }
        if (pos >= text.length()) {
            throw error("a value");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                return number();
        }
    }

    private Object literal(String word, Object v) {
        if (!text.startsWith(word, pos)) {
            throw error(word);
        }
        pos += word.length();
        return v;
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> m = new LinkedHashMap<>();
        elements('}', () -> {
            if (!peek('"')) {
                throw error("a string key");
            }
            String k = string();
            skipSpace();
            expect(':');
            skipSpace();
            if (m.containsKey(k)) {
                throw Checks.fail("JSON key \"" + k + "\" of " + source, "unique in its object", "repeated");
            }
            m.put(k, value(depth + 1));
        });
        return m;
    }

    private List<Object> array(int depth) {
        List<Object> l = new ArrayList<>();
        elements(']', () -> l.add(value(depth + 1)));
        return l;
    }

    /**
     * Reads the comma-separated elements of an object or an array, the opening bracket at pos, through
     * the closing one; element reads one element, spaces around it already skipped.
     */
    private void elements(char close, Runnable element) {
        pos++;
        skipSpace();
        if (peek(close)) {
            pos++;
            return;
        }
        while (true) {
            skipSpace();
            element.run();
            skipSpace();
            if (!peek(',')) {
                expect(close);
                return;
            }
            pos++;
        }
    }

    private boolean peek(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("'" + c + "'");
        }
        pos++;
    }

    private String string() {
        pos++;
        StringBuilder sb = new StringBuilder();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                pos--;
                throw error("no control character inside a string");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (pos >= text.length()) {
                throw error("an escape");
            }
            char e = text.charAt(pos++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> sb.append(unicodeEscape());
                default -> {
                    pos--;
                    throw error("a valid escape");
                }
            }
        }
        throw error("a closing quote");
    }

    private char unicodeEscape() {
        if (pos + 4 > text.length()) {
            throw error("four hex digits");
        }
        int v = 0;
        for (int k = 0; k < 4; k++) {
            int h = Character.digit(text.charAt(pos), 16);
            if (h < 0) {
                throw error("a hex digit");
            }
            v = v * 16 + h;
            pos++;
        }
        return (char) v;
    }

    private Number number() {
        int start = pos;
        boolean integral = true;
        if (peek('-')) {
            pos++;
        }
        if (peek('0')) {
            pos++;
        } else if (!digits()) {
            pos = start;
            throw error("a value");
        }
        if (peek('.')) {
            integral = false;
            pos++;
            if (!digits()) {
                throw error("a digit after '.'");
            }
        }
        if (peek('e') || peek('E')) {
            integral = false;
            pos++;
            if (peek('+') || peek('-')) {
                pos++;
            }
            if (!digits()) {
                throw error("a digit in the exponent");
            }
        }
        String literal = text.substring(start, pos);
        if (integral && pos - start <= 18) {
            return Long.parseLong(literal);
        }
        double v = Double.parseDouble(literal);
        if (Double.isInfinite(v)) {
            pos = start;
            throw error("a number within the double range");
        }
        return v;
    }

    private boolean digits() {
        int s = pos;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        return pos > s;
    }

    /** Writes a value (as above; also {@code double[]}, {@code Number}) with two-space indentation. */
    static String write(Object v) {
        StringBuilder sb = new StringBuilder();
        write(sb, v, 0);
        return sb.append('\n').toString();
    }

    private static void write(StringBuilder sb, Object v, int indent) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String s) {
            quote(sb, s);
        } else if (v instanceof Boolean b) {
            sb.append(b);
        } else if (v instanceof Double || v instanceof Float) {
            double x = ((Number) v).doubleValue();
            if (!Double.isFinite(x)) {
                throw Checks.fail("JSON number", "finite (write null and a flag instead)", x);
            }
            sb.append(x);
        } else if (v instanceof Number n) {
            sb.append(n.longValue());
        } else if (v instanceof double[] a) {
            sb.append('[');
            for (int k = 0; k < a.length; k++) {
                sb.append(k == 0 ? "" : ", ");
                write(sb, a[k], indent);
            }
            sb.append(']');
        } else if (v instanceof Map<?, ?> m) {
            writeObject(sb, m, indent);
        } else if (v instanceof List<?> l) {
            writeList(sb, l, indent);
        } else {
            throw Checks.fail("JSON value", "a map, list, string, number, boolean or null", v.getClass().getName());
        }
    }

    private static void writeObject(StringBuilder sb, Map<?, ?> m, int indent) {
        if (m.isEmpty()) {
            sb.append("{}");
            return;
        }
        sb.append("{\n");
        int k = 0;
        for (Map.Entry<?, ?> e : m.entrySet()) {
            sb.append("  ".repeat(indent + 1));
            quote(sb, String.valueOf(e.getKey()));
            sb.append(": ");
            write(sb, e.getValue(), indent + 1);
            sb.append(++k < m.size() ? ",\n" : "\n");
        }
        sb.append("  ".repeat(indent)).append('}');
    }

    private static void writeList(StringBuilder sb, List<?> l, int indent) {
        boolean flat = l.stream().noneMatch(x -> x instanceof Map || x instanceof List || x instanceof double[]);
        if (flat || l.isEmpty()) {
            sb.append('[');
            for (int k = 0; k < l.size(); k++) {
                sb.append(k == 0 ? "" : ", ");
                write(sb, l.get(k), indent);
            }
            sb.append(']');
            return;
        }
        sb.append("[\n");
        for (int k = 0; k < l.size(); k++) {
            sb.append("  ".repeat(indent + 1));
            write(sb, l.get(k), indent + 1);
            sb.append(k + 1 < l.size() ? ",\n" : "\n");
        }
        sb.append("  ".repeat(indent)).append(']');
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
