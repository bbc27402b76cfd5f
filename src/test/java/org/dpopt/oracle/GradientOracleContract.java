package org.dpopt.oracle;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.linalg.Vectors;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * Contract for every {@link GradientOracle}: the declared norm bound holds for all inputs, including
 * far-away parameters (sensitivity rests on it). Extend with the oracle under test.
 */
public abstract class GradientOracleContract {

    /** The oracle under test, for data with row-norm bound 1. */
    protected abstract GradientOracle oracle();

    @Test
    void normBoundHoldsEverywhere() {
        UniformRandomProvider rng = Rngs.seeded(31);
        Dataset data = Synthetic.logistic(50, Synthetic.plantedVector(4, 1, rng), rng).data();
        GradientOracle o = oracle();
        DMatrixRMaj w = new DMatrixRMaj(4, 1);
        DMatrixRMaj g = new DMatrixRMaj(4, 1);
        for (int t = 0; t < 200; t++) {
            for (int j = 0; j < 4; j++) {
                w.data[j] = (rng.nextDouble() * 2 - 1) * Math.pow(10, rng.nextInt(4));
            }
            for (int i = 0; i < data.size(); i++) {
                o.gradient(w, data, i, g);
                assertTrue(Vectors.norm2(g) <= o.normBound() * (1 + 1e-12), "norm " + Vectors.norm2(g));
            }
        }
        assertTrue(o.costPerCall() >= 1);
    }
}
