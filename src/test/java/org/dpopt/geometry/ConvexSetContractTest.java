package org.dpopt.geometry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.linalg.Vectors;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Projection contract: idempotent, lands in the set, is the closest point (variational inequality). */
class ConvexSetContractTest {

    static Stream<ConvexSet> sets() {
        return Stream.of(ConvexSets.l2Ball(1.5), ConvexSets.box(-0.5, 2), ConvexSets.unconstrained());
    }

    @ParameterizedTest
    @MethodSource("sets")
    void projectionIsTheNearestPoint(ConvexSet set) {
        UniformRandomProvider rng = Rngs.seeded(21);
        int d = 6;
        for (int t = 0; t < 500; t++) {
            DMatrixRMaj v = new DMatrixRMaj(d, 1);
            for (int j = 0; j < d; j++) {
                v.data[j] = (rng.nextDouble() * 2 - 1) * 5;
            }
            DMatrixRMaj p = v.copy();
            set.project(p);
            assertTrue(set.contains(p, 1e-12));
            DMatrixRMaj pp = p.copy();
            set.project(pp);
            assertEquals(0, Vectors.distance2(p, pp), 1e-12, "not idempotent");
            // <v - p, u - p> <= 0 for u in the set (u: projection of another random point)
            DMatrixRMaj u = new DMatrixRMaj(d, 1);
            for (int j = 0; j < d; j++) {
                u.data[j] = (rng.nextDouble() * 2 - 1) * 5;
            }
            set.project(u);
            double ip = 0;
            for (int j = 0; j < d; j++) {
                ip += (v.data[j] - p.data[j]) * (u.data[j] - p.data[j]);
            }
            assertTrue(ip <= 1e-9, "projection not optimal: " + ip);
        }
    }

    @Test
    void sizes() {
        assertEquals(3.0, ConvexSets.l2Ball(1.5).diameter(7), 0);
        assertEquals(1.5, ConvexSets.l2Ball(1.5).radius(7), 0);
        assertTrue(!ConvexSets.unconstrained().isBounded());
        assertEquals(2.5 * Math.sqrt(4), ConvexSets.box(-0.5, 2).diameter(4), 1e-12);
    }

    @Test
    void rejectsBadParameters() {
        assertThrows(IllegalArgumentException.class, () -> ConvexSets.l2Ball(0));
        assertThrows(IllegalArgumentException.class, () -> ConvexSets.l2Ball(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> ConvexSets.box(1, 1));
        assertThrows(IllegalArgumentException.class, () -> ConvexSets.box(Double.NaN, 1));
    }
}
