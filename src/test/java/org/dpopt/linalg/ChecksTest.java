package org.dpopt.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ChecksTest {

    @Test
    void allNotNullAcceptsNonNullReferences() {
        Checks.allNotNull("a", "x", "b", 1);
        Checks.allNotNull();
    }

    @Test
    void allNotNullReportsTheFirstNullInOrder() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Checks.allNotNull("a", "x", "b", null, "c", null));
        assertEquals("b must be non-null but was null", e.getMessage());
    }

    @Test
    void allNotNullRefusesAnOddNumberOfArguments() {
        assertThrows(IllegalStateException.class, () -> Checks.allNotNull("a", "x", "b"));
    }
}
