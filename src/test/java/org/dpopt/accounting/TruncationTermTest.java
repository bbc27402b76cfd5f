package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Oracle values of theory-notes/test-oracles.md §5: r_B = Pr[Bin(n, b/n) &gt; B] and the truncation term. */
class TruncationTermTest {

    private static void close(double expected, double actual, double rel) {
        assertEquals(expected, actual, rel * Math.abs(expected), () -> "expected " + expected + " got " + actual);
    }

    @Test
    void overflowProbabilitiesMatchOracle() {
        long[] n = {1_000_000, 1_000_000, 1_000_000, 36_700_000, 36_700_000};
        long[] b = {1000, 1000, 1000, 65536, 65536};
        long[] bigB = {1100, 1200, 1250, 66536, 67536};
        double[] r = {8.6290e-4, 3.8057e-10, 1.1706e-14, 4.7608e-5, 3.5451e-15};
        double[] union = {5.7822e-1, 3.8057e-7, 1.1706e-11, 2.6309e-2, 1.9853e-12};
        double[] term = {1.2893e+2, 5.6863e-5, 1.7490e-9, 3.9834, 2.9662e-10};
        for (int k = 0; k < n.length; k++) {
            double q = (double) b[k] / n[k];
            long t = (n[k] + b[k] - 1) / b[k]; // T = ⌈n/b⌉ (rounded up, test-oracles §5)
            close(r[k], TruncationTerm.overflowProbability(n[k], q, bigB[k]), 1e-4);
            close(union[k], TruncationTerm.overflowProbabilityOverRun(n[k], q, bigB[k], t), 1e-4);
            // the (1 + e^5)·T·r_B column (union bound); our term uses the exact union, never larger
            close(term[k], (1 + Math.exp(5)) * t * TruncationTerm.overflowProbability(n[k], q, bigB[k]), 1e-4);
            assertTrue(TruncationTerm.deltaTerm(5, n[k], q, bigB[k], t) <= term[k] * (1 + 1e-4));
        }
    }

    @Test
    void smallCasesAgreeWithDirectSum() {
        // Bin(10, 0.3): P[X > 4] computed from the pmf by hand-free recursion
        double q = 0.3;
        double p = Math.pow(0.7, 10);
        double cdf = 0;
        for (int k = 0; k <= 4; k++) {
            cdf += p;
            p = p * (10 - k) / (k + 1) * q / (1 - q);
        }
        close(1 - cdf, TruncationTerm.overflowProbability(10, q, 4), 1e-12);
        close(1 - Math.pow(0.7, 10), TruncationTerm.overflowProbability(10, q, 0), 1e-12);
        assertEquals(0, TruncationTerm.overflowProbability(10, q, 10));
    }

    @Test
    void smallestEpsilonSolvesTheTruncatedCurveExactly() {
        // Gaussian stand-in for the Poisson curve (z = 1): the answer must satisfy the δ form and be minimal
        java.util.function.DoubleUnaryOperator dp = e -> GaussianMechanism.delta(e, 1.0);
        java.util.function.DoubleUnaryOperator ep = d -> GaussianMechanism.epsilon(d, 1.0);
        close(GaussianMechanism.epsilon(1e-5, 1.0), TruncationTerm.smallestEpsilon(dp, ep, 0, 1e-5), 1e-9);
        double eta = 1e-8; // term (1 + e^4.4)·1e-8 ≈ 8e-7: a real but non-vacuous cost
        double e = TruncationTerm.smallestEpsilon(dp, ep, eta, 1e-5);
        assertTrue(GaussianMechanism.delta(e, 1.0) + (1 + Math.exp(e)) * eta <= 1e-5 * (1 + 1e-12));
        assertTrue(GaussianMechanism.delta(e * (1 - 1e-6), 1.0) + (1 + Math.exp(e * (1 - 1e-6))) * eta > 1e-5);
        assertTrue(e > GaussianMechanism.epsilon(1e-5, 1.0));
        assertEquals(Double.POSITIVE_INFINITY, TruncationTerm.smallestEpsilon(dp, ep, 5e-6, 1e-5));
        // the term reaches δ before the Gaussian curve drops below the rest: no ε
        assertEquals(Double.POSITIVE_INFINITY, TruncationTerm.smallestEpsilon(dp, ep, 1e-7, 1e-5));
        assertThrows(IllegalArgumentException.class, () -> TruncationTerm.smallestEpsilon(dp, ep, -1, 1e-5));
        assertThrows(IllegalArgumentException.class, () -> TruncationTerm.smallestEpsilon(dp, ep, 0, 0));
    }

    @Test
    void maxBatchForLeavesTheRequestedShareOfDelta() {
        int bigB = TruncationTerm.maxBatchFor(1_000_000, 1e-3, 1000, 5, 1e-6, 0.1);
        assertTrue(TruncationTerm.deltaTerm(5, 1_000_000, 1e-3, bigB, 1000) <= 1e-7);
        assertTrue(TruncationTerm.deltaTerm(5, 1_000_000, 1e-3, bigB - 1, 1000) > 1e-7);
        assertThrows(IllegalArgumentException.class, () -> TruncationTerm.maxBatchFor(100, 0.1, 10, 1, 1e-5, 1));
    }

    @Test
    void refusesBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> TruncationTerm.overflowProbability(0, 0.5, 1));
        assertThrows(IllegalArgumentException.class, () -> TruncationTerm.overflowProbability(10, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> TruncationTerm.overflowProbability(10, 0.5, -1));
        assertThrows(IllegalArgumentException.class, () -> TruncationTerm.overflowProbabilityOverRun(10, 0.5, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> TruncationTerm.deltaTerm(-1, 10, 0.5, 1, 1));
    }
}
