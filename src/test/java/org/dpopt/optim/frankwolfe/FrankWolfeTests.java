package org.dpopt.optim.frankwolfe;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.SparseLogistic;
import org.dpopt.geometry.Polytopes;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;

/** Helpers shared by the Frank–Wolfe tests. */
final class FrankWolfeTests {
    private FrankWolfeTests() {
    }

    /** n rows of the sparse logistic model (5 active coordinates of size 2), logistic loss, ℓ1 ball of radius 10. */
    static Problem sparse(int n, int d, long seed) {
        UniformRandomProvider rng = Rngs.seeded(seed);
        Dataset data = SparseLogistic.sample(n, SparseLogistic.wStar(d, 5, 2.0), 5, rng);
        return Problem.of(data, Losses.logistic(), Polytopes.l1Ball(10.0));
    }
}
