package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import org.junit.jupiter.api.Test;

/** Parallel composition of many equal parts: RDP of the worst part, compact description. */
class ParallelEqualPartsTest {

    @Test
    void equalPartsCostOnePart() {
        DpEvent part = new SelfComposedEvent(new PoissonSampledEvent(0.1, new GaussianEvent(1.3)), 50);
        ParallelComposedEvent par = new ParallelComposedEvent(Collections.nCopies(500, part));
        RdpAccountant acc = new RdpAccountant();
        assertArrayEquals(acc.rdp(part), acc.rdp(par), 0.0);
        // a different, worse part dominates
        DpEvent worse = new SelfComposedEvent(new PoissonSampledEvent(0.1, new GaussianEvent(1.0)), 50);
        ParallelComposedEvent mixed = ParallelComposedEvent.of(part, worse, part);
        assertArrayEquals(acc.rdp(worse), acc.rdp(mixed), 0.0);
        assertEquals("Parallel[500 disjoint parts, each " + part.describe() + "]", par.describe());
        assertTrue(mixed.describe().startsWith("Parallel[" + part.describe() + ", "));
    }
}
