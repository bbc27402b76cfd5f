package org.dpopt.optim.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.dpopt.data.Dataset;
import org.dpopt.data.Synthetic;
import org.dpopt.geometry.MirrorMap;
import org.dpopt.loss.CauchyLoss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

/** The near-stationarity diagnostic against the closed-form prox of a quadratic. */
class ProximalStationarityTest {

    @Test
    void matchesClosedFormProxOfSquaredLoss() {
        int d = 4;
        int n = 500;
        Dataset data = Synthetic.linearRegression(n, Synthetic.plantedVector(d, 1, Rngs.seeded(1)), 0.1,
                Rngs.seeded(2)).data();
        Problem pr = Problem.of(data, Losses.squared(10, 10)); // clamp inactive: |u − y| stays small
        double rho = 0.3;
        DMatrixRMaj w = Synthetic.plantedVector(d, 0.5, Rngs.seeded(3));
        // minimize (1/n)Σ½(⟨x,v⟩ − y)² + ρ‖v − w‖²  ⇔  (XᵀX/n + 2ρI) v = Xᵀy/n + 2ρ w
        DMatrixRMaj a = new DMatrixRMaj(d, d);
        DMatrixRMaj b = new DMatrixRMaj(d, 1);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                b.data[j] += data.feature(i, j) * data.label(i) / n;
                for (int k = 0; k < d; k++) {
                    a.data[j * d + k] += data.feature(i, j) * data.feature(i, k) / n;
                }
            }
        }
        for (int j = 0; j < d; j++) {
            a.data[j * d + j] += 2 * rho;
            b.data[j] += 2 * rho * w.data[j];
        }
        DMatrixRMaj exact = new DMatrixRMaj(d, 1);
        assertTrue(CommonOps_DDRM.solve(a, b, exact));
        ProximalStationarity.Result r = ProximalStationarity.compute(pr, MirrorMap.euclidean(d), rho, w, 2000);
        double err = 0;
        double gap = 0;
        for (int j = 0; j < d; j++) {
            err += Math.pow(r.proxPoint().data[j] - exact.data[j], 2);
            gap += Math.pow(w.data[j] - exact.data[j], 2);
        }
        assertTrue(Math.sqrt(err) < 1e-3 * Math.sqrt(gap), "prox error " + Math.sqrt(err));
        assertEquals(Math.sqrt(gap), r.gap(), 1e-3 * Math.sqrt(gap));
        // p = 2: stationarity is the Moreau-envelope gradient norm 2ρ‖w − prox(w)‖
        assertEquals(2 * rho * r.gap(), r.stationarity(), 1e-15);
        // and the envelope gradient equals ∇F̂(prox(w)) (optimality), checked through the full gradient
        DMatrixRMaj g = new DMatrixRMaj(d, 1);
        pr.fullGradient(exact, g);
        assertEquals(Math.sqrt(CommonOps_DDRM.dot(g, g)), 2 * rho * Math.sqrt(gap), 1e-9);
    }

    @Test
    void zeroAtAStationaryPointOfASmoothLoss() {
        // a minimizer of F̂ is its own prox point; from there the diagnostic must be ~0, and it grows
        // when we move away
        int d = 3;
        Dataset data = Synthetic.linearRegression(400, Synthetic.plantedVector(d, 1, Rngs.seeded(4)), 0.05,
                Rngs.seeded(5)).data();
        Problem pr = Problem.of(data, CauchyLoss.INSTANCE);
        MirrorMap map = MirrorMap.lp(1, d);
        double rho = CauchyLoss.INSTANCE.weakConvexity(1);
        DMatrixRMaj far = new DMatrixRMaj(d, 1);
        DMatrixRMaj min = ProximalStationarity.compute(pr, map, rho, far, 1).proxPoint();
        for (int k = 0; k < 200; k++) {
            min = ProximalStationarity.compute(pr, map, rho, min, 200).proxPoint(); // proximal point method
        }
        assertTrue(ProximalStationarity.compute(pr, map, rho, min, 300).stationarity() < 1e-4);
        assertTrue(ProximalStationarity.compute(pr, map, rho, far, 300).stationarity() > 1e-2);
    }

    @Test
    void refusesBadArguments() {
        Dataset data = Synthetic.linearRegression(10, Synthetic.plantedVector(2, 1, Rngs.seeded(1)), 0.1,
                Rngs.seeded(2)).data();
        Problem pr = Problem.of(data, CauchyLoss.INSTANCE);
        DMatrixRMaj w = new DMatrixRMaj(2, 1);
        assertThrows(IllegalArgumentException.class, () -> ProximalStationarity.compute(pr, MirrorMap.lp(2, 3), 1, w, 5));
        assertThrows(IllegalArgumentException.class, () -> ProximalStationarity.compute(pr, MirrorMap.lp(2, 2), 0, w, 5));
        assertThrows(IllegalArgumentException.class, () -> ProximalStationarity.compute(pr, MirrorMap.lp(2, 2), 1, w, 0));
        assertThrows(IllegalArgumentException.class,
                () -> ProximalStationarity.compute(pr, MirrorMap.lp(2, 2), 1, new DMatrixRMaj(3, 1), 5));
    }
}
