package org.dpopt.optim.smoothing;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.linalg.Vectors;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;

/**
 * The n-dependent hinge family on which the 1/√n statistical rate is attained (the usual minimax
 * construction): x ~ N(0, I/d) projected onto the unit ball, y = sign(⟨w*, x⟩) flipped with probability
 * (1 − γ)/2, γ = c/√n, hinge loss on the unit ℓ2 ball. There |⟨w, x⟩| ≤ 1, so the hinge is exactly
 * 1 − y⟨w, x⟩ and F(w) = 1 − γ·m·⟨w, u⟩ with u the unit vector along w* and m = E|⟨u, x⟩|. Hence
 * F* = 1 − γm (at w = u) and the excess risk of w in the ball is exactly γ·m·(1 − ⟨w, u⟩).
 */
final class HardLinearFamily {
    final int d;
    final double c;
    final DMatrixRMaj u;
    final double m;

    HardLinearFamily(int d, double c, long seed) {
        this.d = d;
        this.c = c;
        UniformRandomProvider rng = Rngs.seeded(seed);
        this.u = Synthetic.plantedVector(d, 1, rng);
        // m = E|⟨u, x⟩| by Monte Carlo on 400k draws (a constant factor: it does not affect slopes)
        Dataset mc = Synthetic.linearlySeparable(400_000, u, 0, rng).data();
        double s = 0;
        for (int i = 0; i < mc.size(); i++) {
            s += Math.abs(mc.dot(i, u));
        }
        this.m = s / mc.size();
    }

    double gamma(int n) {
        return Math.min(1, c / Math.sqrt(n));
    }

    Dataset sample(int n, long seed) {
        return Synthetic.linearlySeparable(n, u, (1 - gamma(n)) / 2, Rngs.seeded(seed)).data();
    }

    /** Exact population excess risk of w after projection onto the unit ball (post-processing). */
    double excess(DMatrixRMaj w, int n) {
        double norm = Vectors.norm2(w);
        double cos = norm > 1 ? Vectors.dot(w, u) / norm : Vectors.dot(w, u);
        return gamma(n) * m * (1 - cos);
    }
}
