package org.dpopt.optim.objpert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.linalg.Vectors;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.oracle.DatasetPasses;
import org.ejml.data.DMatrixRMaj;

/** Shared data and references for the objective-perturbation tests. */
final class ObjPertFixtures {
    private ObjPertFixtures() {
    }

    /** A budget at which the noise is negligible. */
    static final PrivacyBudget HUGE = PrivacyBudget.of(1e12, 1e-5);

    static Dataset regression(int n, int d, long seed) {
        DMatrixRMaj w = Synthetic.plantedVector(d, 0.5, Rngs.seeded(seed));
        return Synthetic.linearRegression(n, w, 0.1, Rngs.seeded(seed + 1)).data();
    }

    static Dataset classification(int n, int d, long seed) {
        DMatrixRMaj w = Synthetic.plantedVector(d, 3, Rngs.seeded(seed));
        return Synthetic.logistic(n, w, Rngs.seeded(seed + 1)).data();
    }

    /** Independent high-accuracy reference: projected gradient descent on F̂ + λ‖w‖², step 1/(β + 2λ). */
    static DMatrixRMaj referenceSolve(Problem p, double lambda, int iters) {
        int d = p.dimension();
        DMatrixRMaj w = new DMatrixRMaj(d, 1);
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        double step = 1 / (p.smoothness() + 2 * lambda);
        for (int t = 0; t < iters; t++) {
            p.fullGradient(w, g);
            Vectors.axpy(2 * lambda, w, g);
            Vectors.axpy(-step, g, w);
            p.domain().project(w);
        }
        return w;
    }

    /** A logistic perturbed objective with a small random linear term. */
    static PerturbedObjective objective(Dataset data, ConvexSet dom, double lambda, long seed) {
        DMatrixRMaj b = new DMatrixRMaj(data.dimension(), 1);
        UniformRandomProvider r = Rngs.seeded(seed);
        for (int j = 0; j < b.numRows; j++) {
            b.data[j] = 0.01 * (r.nextDouble() - 0.5);
        }
        return new PerturbedObjective(new DatasetPasses(data), Losses.logistic(), dom, b, lambda,
                data.rowNormBound(), 0.25 * data.rowNormBound() * data.rowNormBound());
    }

    /** The plan is refused with a message containing the fragment, and so is a run. */
    static void assertRefused(PrivateOptimizer op, Problem p, PrivacyBudget b, String fragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> op.plan(p.shape(), b));
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
        IllegalArgumentException e2 = assertThrows(IllegalArgumentException.class,
                () -> op.optimize(p, b, Rngs.seeded(1)));
        assertEquals(e.getMessage(), e2.getMessage());
    }
}
