package org.dpopt.optim.smoothing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.junit.jupiter.api.Test;

/**
 * Phased-SGD + bisection on a hinge-loss problem with a known population optimum: excess risk falls with n.
 * The slope against the theorem's exponent is checked by the slow {@code SmoothingValidationTest}.
 */
class PhasedSgdExcessRiskTest {

    /**
     * Mean excess over 6 seeds at n = 1000, 8000, 64000. Measured means differ by more than 10× from one size
     * to the next while their standard errors are below 15 % of the means (validation/smoothing.md), so a
     * false failure under other seeds would need a &gt; 6σ deviation (probability &lt; 1e−6).
     */
    @Test
    void excessRiskDecreasesWithN() {
        SvmProblem svm = SvmProblem.standard(200_000);
        PrivacyBudget b = PrivacyBudget.of(1, 1e-6);
        int[] ns = {1000, 8000, 64000};
        int seeds = 6;
        double[] excess = new double[ns.length];
        for (int k = 0; k < ns.length; k++) {
            for (int s = 0; s < seeds; s++) {
                Problem p = Problem.of(svm.sample(ns[k], 100 + s), Losses.hinge(), ConvexSets.l2Ball(svm.radius));
                OptimizationResult r = PhasedSgd.defaults().optimize(p, b, Rngs.seeded(s));
                excess[k] += (svm.risk(r.solution()) - svm.fStar) / seeds;
            }
        }
        assertTrue(excess[1] < excess[0] && excess[2] < excess[1], java.util.Arrays.toString(excess));
        assertTrue(excess[2] < excess[0] / 4, java.util.Arrays.toString(excess));
    }

    static double slope(double[] x, double[] y) {
        double mx = 0;
        double my = 0;
        for (int i = 0; i < x.length; i++) {
            mx += x[i] / x.length;
            my += y[i] / x.length;
        }
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
        }
        return sxy / sxx;
    }
}
