package org.dpopt.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.dpopt.data.Dataset;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.Losses;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ExactGradientOracleTest {

    @Nested
    class Logistic extends GradientOracleContract {
        @Override
        protected GradientOracle oracle() {
            return ExactGradientOracle.of(Losses.logistic(), 1.0);
        }
    }

    @Nested
    class MisdeclaredLossIsClipped extends GradientOracleContract {
        @Override
        protected GradientOracle oracle() {
            // declared bound 0.1 below the true Lipschitz constant 1: the oracle clips to the declaration
            return new ExactGradientOracle(Losses.hinge(), 0.1);
        }
    }

    @Test
    void equalsLossGradientWhenWithinBound() {
        Dataset d = Dataset.of(new double[][] {{0.6, 0.8}}, new double[] {1}, 1);
        DMatrixRMaj w = Vectors.of(0.3, -0.2);
        DMatrixRMaj a = new DMatrixRMaj(2, 1);
        DMatrixRMaj b = new DMatrixRMaj(2, 1);
        ExactGradientOracle.of(Losses.logistic(), 1).gradient(w, d, 0, a);
        Losses.logistic().gradient(w, d, 0, b);
        assertEquals(0, Vectors.distance2(a, b), 0);
        assertThrows(IllegalArgumentException.class, () -> new ExactGradientOracle(Losses.logistic(), 0));
    }
}
