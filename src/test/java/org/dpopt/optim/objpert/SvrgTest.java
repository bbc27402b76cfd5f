package org.dpopt.optim.objpert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.linalg.Vectors;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class SvrgTest {

    @Test
    void scheduleMatchesTheLemmaConstants() {
        Dataset data = ObjPertFixtures.classification(100, 3, 1);
        Svrg.Schedule u = Svrg.schedule(0.01, 0.25, true);
        assertEquals(1 / (10 * 0.27), u.stepSize(), 1e-15);
        assertEquals(540, u.innerSteps());
        assertEquals(0.5625, u.rho(), 1e-12); // 12.5β′/(2λk) + 1/4 with k = 20β′/λ
        Svrg.Schedule c = Svrg.schedule(0.01, 0.25, false);
        assertEquals(1350, c.innerSteps());
        assertEquals(1 / (20 * 0.27), c.stepSize(), 1e-15);
        // 25β′/(2λk) + 0.2(k+1)/(0.8k) with k = 50β′/λ: 0.25 + 0.25(1 + 1/k)
        assertEquals(0.5 + 0.25 / 1350, c.rho(), 1e-12);
    }

    /**
     * Linear convergence: the certified gap must shrink at least at the lemma's expected rate ρ per epoch
     * (geometric mean over the epochs before the rounding floor). Fixed seed; the lemma bounds the
     * expectation, and the observed contraction is far stronger, so this is not a flaky margin.
     */
    @Test
    void linearConvergenceOnAStronglyConvexProblem() {
        Dataset data = ObjPertFixtures.classification(2000, 10, 3);
        for (ConvexSet dom : new ConvexSet[] {ConvexSets.unconstrained(), ConvexSets.l2Ball(1)}) {
            PerturbedObjective obj = ObjPertFixtures.objective(data, dom, 0.01, 2);
            Svrg.Result r = Svrg.solve(obj, 1e-300, 12, false, Rngs.seeded(4));
            double[] h = r.gapHistory();
            int last = 0;
            while (last + 1 < h.length && h[last + 1] > 1e-20) {
                last++;
            }
            assertTrue(last >= 3, "too few epochs above the floor: " + java.util.Arrays.toString(h));
            double rate = Math.pow(h[last] / h[0], 1.0 / last);
            double rho = Svrg.schedule(0.01, 0.25, dom.isWholeSpace()).rho();
            assertTrue(rate < rho, dom + " observed rate " + rate + " vs lemma " + rho);
            assertTrue(h[h.length - 1] < 1e-10 * h[0], java.util.Arrays.toString(h));
        }
    }

    @Test
    void certificateBoundsTheTrueSuboptimalityAndDistance() {
        Dataset data = ObjPertFixtures.classification(500, 4, 5);
        UniformRandomProvider rng = Rngs.seeded(6);
        for (ConvexSet dom : new ConvexSet[] {ConvexSets.unconstrained(), ConvexSets.l2Ball(0.3)}) {
            PerturbedObjective obj = ObjPertFixtures.objective(data, dom, 0.02, 7);
            CertifiedNewtonSolver.Solution sol = CertifiedNewtonSolver.defaults().solve(obj);
            assertTrue(sol.certified(), "reference solve certified");
            DMatrixRMaj opt = sol.w();
            double jStar = obj.value(opt);
            DMatrixRMaj g = new DMatrixRMaj(4, 1);
            DMatrixRMaj work = new DMatrixRMaj(4, 1);
            for (int t = 0; t < 200; t++) {
                DMatrixRMaj w = new DMatrixRMaj(4, 1);
                double scale = Math.pow(10, -6 * rng.nextDouble());
                for (int j = 0; j < 4; j++) {
                    w.data[j] = opt.data[j] + scale * (rng.nextDouble() - 0.5);
                }
                dom.project(w);
                obj.gradient(w, g);
                double gap = obj.suboptimalityBound(w, g, work);
                double dist = Vectors.distance2(w, opt);
                assertTrue(obj.value(w) - jStar <= gap * (1 + 1e-9) + 1e-15, "gap " + gap);
                assertTrue(dist <= obj.distanceBound(gap) * (1 + 1e-9) + 1e-12);
                assertTrue(dist <= obj.gradientMappingDistance(w, g, work) * (1 + 1e-9) + 1e-12);
                if (dom instanceof ConvexSets.Unconstrained) {
                    double gn = Vectors.norm2(g);
                    assertEquals(gn * gn / (4 * 0.02), gap, 1e-12 * (1 + gap));
                }
            }
        }
    }

    @Test
    void epochBudgetGrowsLogarithmically() {
        int e1 = Svrg.epochBudget(0.01, 0.25, 1, 0.01, 0, 1, false, 1e-6, 1e-6);
        int e2 = Svrg.epochBudget(0.01, 0.25, 1, 0.01, 0, 1, false, 1e-12, 1e-6);
        double perDecade = Math.log(10) / Math.log(1 / Svrg.schedule(0.01, 0.25, false).rho());
        assertEquals(6 * perDecade, e2 - e1, 1.5);
    }

    @Test
    void earlyStopEndsOnceCertified() {
        Dataset data = ObjPertFixtures.classification(1000, 5, 9);
        PerturbedObjective obj = ObjPertFixtures.objective(data, ConvexSets.l2Ball(1), 0.01, 2);
        Svrg.Result r = Svrg.solve(obj, 1e-8, 200, true, Rngs.seeded(1));
        assertTrue(r.suboptimality() <= 1e-8);
        assertTrue(r.epochs() < 200);
        assertTrue(r.gapHistory()[r.epochs() - 1] > 1e-8, "stopped late");
    }
}
