package org.dpopt.accounting;

import java.util.ArrayList;
import java.util.List;

/** The notes of a privacy report: added once each, in the order first seen. */
final class Notes {
    private Notes() {
    }

    /** Adds {@code n} to {@code notes} unless either is null or it is already there. */
    static void add(List<String> notes, String n) {
        if (notes != null && n != null && !notes.contains(n)) {
            notes.add(n);
        }
    }

    /** The distinct notes, in order. */
    static List<String> dedupe(List<String> notes) {
        List<String> out = new ArrayList<>();
        for (String n : notes) {
            if (!out.contains(n)) {
                out.add(n);
            }
        }
        return out;
    }
}
