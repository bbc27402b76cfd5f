package org.dpopt.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Deterministic checks of the binomial bounds (no randomness: nothing here can fail by chance). */
class ClopperPearsonTest {

    @Test
    void agreesWithAnIndependentImplementation() {
        long[][] cases = {{0, 10}, {1, 10}, {5, 10}, {9, 10}, {0, 500}, {3, 500}, {250, 500}, {499, 500},
            {17, 5000}, {4000, 5000}};
        for (long[] c : cases) {
            for (double a : new double[] {0.025, 0.005, 0.3}) {
                double mine = ClopperPearson.upper(c[0], c[1], a);
                double other = IndependentClopperPearson.upper(c[0], c[1], a);
                assertEquals(other, mine, 1e-9 * Math.max(1e-3, other), "k=" + c[0] + " m=" + c[1] + " a=" + a);
            }
        }
    }

    @Test
    void closedFormsAtTheEnds() {
        assertEquals(1 - Math.pow(0.05, 1.0 / 100), ClopperPearson.upper(0, 100, 0.05), 1e-15);
        assertEquals(1.0, ClopperPearson.upper(100, 100, 0.05));
        assertEquals(0.0, ClopperPearson.lower(0, 100, 0.05));
        assertEquals(1 - ClopperPearson.upper(30, 100, 0.05), ClopperPearson.lower(70, 100, 0.05), 1e-15);
        // textbook value: 2 of 20 at 95% one-sided upper bound 0.2826
        assertEquals(0.2826, ClopperPearson.upper(2, 20, 0.05), 5e-5);
    }

    @Test
    void coverageIsAtLeastTheConfidenceExactly() {
        // P_p(p <= upper(K)) summed exactly over K ~ Bin(m, p), for several p
        int m = 60;
        double alpha = 0.05;
        for (double p : new double[] {0.01, 0.1, 0.37, 0.5, 0.9}) {
            double cover = 0;
            for (int k = 0; k <= m; k++) {
                double pmf = Math.exp(IndependentClopperPearson.logChoose(m, k) + k * Math.log(p)
                        + (m - k) * Math.log1p(-p));
                if (ClopperPearson.upper(k, m, alpha) >= p) {
                    cover += pmf;
                }
            }
            assertTrue(cover >= 1 - alpha - 1e-12, "coverage " + cover + " at p = " + p);
        }
    }

    @Test
    void refusesBadCounts() {
        assertThrows(IllegalArgumentException.class, () -> ClopperPearson.upper(11, 10, 0.05));
        assertThrows(IllegalArgumentException.class, () -> ClopperPearson.upper(-1, 10, 0.05));
        assertThrows(IllegalArgumentException.class, () -> ClopperPearson.upper(1, 10, 0));
    }
}
