package org.dpopt.optim;

import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * An immutable map from an enum of named keys to values, kept in key order: what {@link RunParameters}
 * (public, planned) and {@link Diagnostics} (non-private) hold the same way. The two stay separate
 * types so that a diagnostic can never be passed where a parameter is expected.
 *
 * @param <K> the key enum
 * @param <V> the value type
 */
abstract class KeyedValues<K extends Enum<K>, V> {
    private final EnumMap<K, V> values;
    private final Function<K, String> name;

    /** Takes ownership of values; name gives a key's snake_case name. */
    KeyedValues(EnumMap<K, V> values, Function<K, String> name) {
        this.values = values;
        this.name = name;
    }

    /** The value of a key, or null if absent. */
    final V value(K k) {
        return values.get(k);
    }

    /** The entries, read-only, for subclasses' builders and equality. */
    final Map<K, V> entries() {
        return Collections.unmodifiableMap(values);
    }

    /** True if the key is present. */
    public final boolean has(K k) {
        return values.containsKey(k);
    }

    /** True if there are none. */
    public final boolean isEmpty() {
        return values.isEmpty();
    }

    /** How a value appears in {@link #asMap()} (itself unless a subclass says otherwise). */
    Object exported(V v) {
        return v;
    }

    /** The values as an ordered snake_case map (key order = the enum's order), for reports and JSON. */
    public final Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Map.Entry<K, V> e : values.entrySet()) {
            m.put(name.apply(e.getKey()), exported(e.getValue()));
        }
        return Collections.unmodifiableMap(m);
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}
