package org.dpopt.optim.smoothing;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.loss.Losses;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;

/**
 * A synthetic SVM-like problem with a known population optimum: x ~ N(0, I/d) projected onto the unit
 * ball, y = sign(⟨w*, x⟩) flipped with probability p, hinge loss on the ℓ2 ball of radius B.
 *
 * <p>The distribution of x is rotation invariant and y depends on x only through ⟨w*, x⟩, so the
 * population risk F is invariant under rotations fixing w*; averaging any w over them (convexity) gives
 * a point t·u on the ray of the unit vector u along w* that is no worse. Hence F* = min over t in [0, B] of F(t·u), a one-dimensional search, done here
 * on a large independent Monte Carlo sample (the same sample is used to evaluate F(ŵ), so the excess is
 * the difference of two estimates with correlated errors).
 */
final class SvmProblem {
    final int d;
    final double radius;
    final DMatrixRMaj wStar;
    final Dataset population;
    final double fStar;
    final double tStar;
    final double flip;

    SvmProblem(int d, double radius, double flip, int populationSize, long seed) {
        this.d = d;
        this.flip = flip;
        this.radius = radius;
        UniformRandomProvider rng = Rngs.seeded(seed);
        this.wStar = Synthetic.plantedVector(d, 1, rng);
        this.population = Synthetic.linearlySeparable(populationSize, wStar, flip, rng).data();
        double best = Double.POSITIVE_INFINITY;
        double bestT = 0;
        // golden-section search on the convex t ↦ F(t ŵ*) over [0, B]
        double lo = 0;
        double hi = radius;
        double g = (Math.sqrt(5) - 1) / 2;
        double a = hi - g * (hi - lo);
        double b = lo + g * (hi - lo);
        double fa = risk(scaled(a));
        double fb = risk(scaled(b));
        for (int it = 0; it < 60; it++) {
            if (fa < fb) {
                hi = b;
                b = a;
                fb = fa;
                a = hi - g * (hi - lo);
                fa = risk(scaled(a));
            } else {
                lo = a;
                a = b;
                fa = fb;
                b = lo + g * (hi - lo);
                fb = risk(scaled(b));
            }
        }
        for (double t : new double[] {a, b, radius}) {
            double f = risk(scaled(t));
            if (f < best) {
                best = f;
                bestT = t;
            }
        }
        this.fStar = best;
        this.tStar = bestT;
    }

    DMatrixRMaj scaled(double t) {
        DMatrixRMaj w = wStar.copy();
        for (int j = 0; j < d; j++) {
            w.data[j] *= t;
        }
        return w;
    }

    /** Population hinge risk (Monte Carlo). */
    double risk(DMatrixRMaj w) {
        double s = 0;
        var hinge = Losses.hinge();
        for (int i = 0; i < population.size(); i++) {
            s += hinge.phi(population.dot(i, w), population.label(i));
        }
        return s / population.size();
    }

    /** A training sample of size n from the same distribution (independent of the population sample). */
    Dataset sample(int n, long seed) {
        return Synthetic.linearlySeparable(n, wStar, flip, Rngs.seeded(seed)).data();
    }

    /** d = 5, B = 3, 10 % label noise. */
    static SvmProblem standard(int populationSize) {
        return new SvmProblem(5, 3, 0.1, populationSize, 2024);
    }
}
