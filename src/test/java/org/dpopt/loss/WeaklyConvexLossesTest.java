package org.dpopt.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Synthetic;
import org.dpopt.noise.Rngs;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * The weakly convex losses: derivative = numerical derivative, |φ′| ≤ L₀ everywhere, and the scalar
 * weak-convexity inequality φ(v) ≥ φ(u) + φ′(u)(v − u) − (ρ₀/2)(v − u)² on a grid (ρ₀ = ρ(R=1)).
 */
class WeaklyConvexLossesTest {

    private static final List<GeneralizedLinearLoss> LOSSES = List.of(new PhaseRetrievalLoss(1.5),
            SigmoidLoss.INSTANCE, CauchyLoss.INSTANCE);

    @Test
    void derivativeMatchesFiniteDifferencesAwayFromKinks() {
        for (GeneralizedLinearLoss l : LOSSES) {
            for (double y : new double[] {-1, 0.3, 1, 2}) {
                for (double u = -4; u <= 4; u += 0.0731) {
                    double h = 1e-6;
                    double num = (l.phi(u + h, y) - l.phi(u - h, y)) / (2 * h);
                    double left = (l.phi(u, y) - l.phi(u - h, y)) / h;
                    double right = (l.phi(u + h, y) - l.phi(u, y)) / h;
                    if (Math.abs(left - right) > 1e-3) {
                        continue; // a kink of the phase retrieval loss: any subgradient is fine
                    }
                    assertEquals(num, l.derivative(u, y), 1e-5, l + " u=" + u + " y=" + y);
                }
            }
        }
    }

    @Test
    void derivativeIsBoundedByDeclaredLipschitzEverywhere() {
        for (GeneralizedLinearLoss l : LOSSES) {
            double lip = l.scalarLipschitz();
            double max = 0;
            for (double y : new double[] {-5, 0, 0.5, 3, 100}) {
                for (double u = -50; u <= 50; u += 0.013) {
                    max = Math.max(max, Math.abs(l.derivative(u, y)));
                }
            }
            assertTrue(max <= lip * (1 + 1e-12), l + " " + max + " > " + lip);
            assertTrue(max >= 0.95 * lip, l + ": declared bound should be nearly attained, max " + max);
        }
    }

    @Test
    void weakConvexityInequalityHoldsWithDeclaredRho() {
        for (GeneralizedLinearLoss l : LOSSES) {
            double rho = l.weakConvexity(1.0);
            assertTrue(rho > 0 && Double.isFinite(rho));
            double worst = Double.POSITIVE_INFINITY;
            for (double y : new double[] {-1, 0, 0.5, 2.5, 4}) {
                for (double u = -3; u <= 3; u += 0.05) {
                    for (double v = -3; v <= 3; v += 0.05) {
                        double slack = l.phi(v, y) - l.phi(u, y) - l.derivative(u, y) * (v - u)
                                + 0.5 * rho * (v - u) * (v - u);
                        worst = Math.min(worst, slack);
                        assertTrue(slack >= -1e-9, l + " u=" + u + " v=" + v + " y=" + y + " slack=" + slack);
                    }
                }
            }
            // and ρ is not grossly over-declared: with ρ/2 the inequality fails somewhere
            double halfWorst = Double.POSITIVE_INFINITY;
            for (double y : new double[] {0.5, 2.5, 4}) {
                for (double u = -3; u <= 3; u += 0.05) {
                    for (double v = -3; v <= 3; v += 0.05) {
                        halfWorst = Math.min(halfWorst, l.phi(v, y) - l.phi(u, y) - l.derivative(u, y) * (v - u)
                                + 0.25 * rho * (v - u) * (v - u));
                    }
                }
            }
            assertTrue(halfWorst < 0, l + " rho/2 also works: declared rho is loose");
        }
    }

    @Test
    void rhoScalesWithRowNormSquared() {
        for (GeneralizedLinearLoss l : LOSSES) {
            assertEquals(4 * l.weakConvexity(1), l.weakConvexity(2), 1e-12);
            assertEquals(Loss.Convexity.WEAKLY_CONVEX, l.convexity());
            assertEquals(2 * l.scalarLipschitz(), l.lipschitz(2), 1e-12);
        }
    }

    @Test
    void phaseRetrievalIsExactOnItsRange() {
        PhaseRetrievalLoss l = new PhaseRetrievalLoss(2);
        assertEquals(Math.abs(1.5 * 1.5 - 0.7), l.phi(1.5, 0.7), 1e-15);
        assertEquals(2 * 1.5, l.derivative(1.5, 0.7), 1e-15);
        assertEquals(-2 * 0.5, l.derivative(0.5, 0.7), 1e-15);
        assertEquals(0, l.derivative(1, 1));
        // tangent continuation outside the range
        assertEquals(4 + 4 * 1 - 0.7, l.phi(3, 0.7), 1e-12);
        assertEquals(Double.POSITIVE_INFINITY, l.scalarSmoothness());
    }

    @Test
    void lossNamesResolve() {
        assertEquals("phase-retrieval", Losses.byName("phase-retrieval").name());
        assertSame(SigmoidLoss.INSTANCE, Losses.byName("sigmoid"));
        assertSame(CauchyLoss.INSTANCE, Losses.byName("cauchy"));
        assertTrue(Losses.NAMES.contains("cauchy"));
    }

    @Test
    void refusesBadRange() {
        assertThrows(IllegalArgumentException.class, () -> new PhaseRetrievalLoss(0));
        assertThrows(IllegalArgumentException.class, () -> new PhaseRetrievalLoss(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new PhaseRetrievalLoss(Double.POSITIVE_INFINITY));
    }

    @Test
    void phaseRetrievalGeneratorPlantsTheSignal() {
        UniformRandomProvider rng = Rngs.seeded(4);
        DMatrixRMaj w = Synthetic.plantedVector(5, 1, rng);
        Synthetic.Planted p = Synthetic.phaseRetrieval(2000, w, 0.2, rng);
        int clean = 0;
        for (int i = 0; i < 2000; i++) {
            double u = p.data().dot(i, w);
            if (Math.abs(u * u - p.data().label(i)) < 1e-12) {
                clean++;
            }
            assertTrue(p.data().rowNorm(i) <= 1 + 1e-9);
        }
        // Binomial(2000, 0.8): mean 1600, sd ≈ 17.9; ±100 is > 5 sd (false failure < 1e-6)
        assertEquals(1600, clean, 100);
        assertThrows(IllegalArgumentException.class, () -> Synthetic.phaseRetrieval(10, w, 0.5, rng));
        assertThrows(IllegalArgumentException.class, () -> Synthetic.phaseRetrieval(10, w, -0.1, rng));
    }
}
