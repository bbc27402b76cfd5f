package org.dpopt.accounting;

import java.util.Locale;

/** Which side of the true privacy curve a reported ε is on. */
public enum Bound {
    /** A valid guarantee: the true ε is at most the reported value. */
    UPPER,
    /** Optimistic only: the true ε is at least the reported value (not a guarantee). */
    LOWER;

    /** The lower-case name used in JSON reports and by {@code --bound} ("upper", "lower"). */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
