package org.dpopt.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The optional flags an algorithm accepts, each with its default as shown in help, in help order (the
 * order the "flag not used by this algorithm" error lists them in). Groups that several algorithms share
 * (the SGD schedule, the objective-perturbation settings, the Frank–Wolfe sets) are tables of their own
 * that a spec appends with {@link #and(FlagTable)}.
 */
final class FlagTable {
    private final Map<Flag<?>, String> defaults = new LinkedHashMap<>();

    private FlagTable() {
    }

    /** A table of one flag. */
    static FlagTable of(Flag<?> flag, String dflt) {
        return new FlagTable().and(flag, dflt);
    }

    /** A copy of a shared group, to append to. */
    static FlagTable of(FlagTable group) {
        return new FlagTable().and(group);
    }

    /** Appends a flag (or replaces its default, keeping its place). */
    FlagTable and(Flag<?> flag, String dflt) {
        defaults.put(flag, dflt);
        return this;
    }

    /** Appends every flag of a group, in the group's order. */
    FlagTable and(FlagTable group) {
        defaults.putAll(group.defaults);
        return this;
    }

    /** The flags and their defaults, in order (an unmodifiable copy). */
    Map<Flag<?>, String> asMap() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(defaults));
    }
}
