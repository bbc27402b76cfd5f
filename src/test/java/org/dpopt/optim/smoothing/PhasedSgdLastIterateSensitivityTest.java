package org.dpopt.optim.smoothing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.accounting.DpEvent;
import org.dpopt.data.Dataset;
import org.dpopt.geometry.ConvexSet;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.Loss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.core.ReleaseObserver;
import org.dpopt.sampling.RecordOrder;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/**
 * The practical preset releases each phase's last iterate with the Δ_i of the average: on replace-one
 * neighbours run with the same seed (same order, same noise), the releases of the phase holding the
 * replaced record differ by at most Δ_i, and the earlier releases not at all. Deterministic given the
 * seeds (no false failures).
 */
class PhasedSgdLastIterateSensitivityTest {

    private static final int N = 40;
    private static final int D = 3;

    @Test
    void lastIterateOfEveryPhaseMovesAtMostItsSensitivity() {
        double worst = 0;
        for (Loss loss : new Loss[] {Losses.logistic(), Losses.hinge(), Losses.absolute()}) {
            for (ConvexSet set : new ConvexSet[] {ConvexSets.l2Ball(1), ConvexSets.unconstrained()}) {
                for (double eps : new double[] {1, 50}) {
                    worst = Math.max(worst, worstRatio(loss, set, PrivacyBudget.of(eps, 1e-6)));
                }
            }
        }
        assertTrue(worst <= 1 + 1e-9, "a release moved " + worst + " times its sensitivity");
        assertTrue(worst > 0.5, "the check is not vacuous: worst ratio " + worst);
    }

    private static double worstRatio(Loss loss, ConvexSet set, PrivacyBudget b) {
        UniformRandomProvider gen = Rngs.seeded(11);
        double[][] rows = new double[N][D];
        double[] labels = new double[N];
        for (int i = 0; i < N; i++) {
            for (int k = 0; k < D; k++) {
                rows[i][k] = (gen.nextDouble() - 0.5) * 1.1;
            }
            labels[i] = gen.nextBoolean() ? 1 : -1;
        }
        PhasedSgd opt = PhasedSgd.builder().order(RecordOrder.GIVEN).build();
        Problem base = Problem.of(Dataset.of(rows, labels, 1.0), loss, set);
        PhasedSchedule s = opt.plan(base.shape(), b).detail(PhasedSchedule.class);
        assertEquals(2, s.phases());
        assertTrue(s.lastIterate());
        List<DMatrixRMaj> ra = releases(opt, base, b);
        double worst = 0;
        int start = 0;
        for (int ph = 0; ph < s.phases(); ph++) {
            for (int victim : new int[] {start, start + 1, start + s.size(ph) / 2, start + s.size(ph) - 1}) {
                double[][] other = new double[N][];
                for (int i = 0; i < N; i++) {
                    other[i] = rows[i].clone();
                }
                double[] otherLabels = labels.clone();
                // an extreme replacement: a unit row against the victim's direction, the same label (opposite gradients)
                double norm = 0;
                for (int k = 0; k < D; k++) {
                    norm += rows[victim][k] * rows[victim][k];
                }
                norm = Math.sqrt(norm);
                for (int k = 0; k < D; k++) {
                    other[victim][k] = -rows[victim][k] / norm;
                }
                List<DMatrixRMaj> rb = releases(opt, Problem.of(Dataset.of(other, otherLabels, 1.0), loss, set), b);
                for (int q = 0; q < ph; q++) {
                    assertEquals(0, distance(ra.get(q), rb.get(q)), 0.0, "an earlier phase saw the victim");
                }
                worst = Math.max(worst, distance(ra.get(ph), rb.get(ph)) / s.sensitivity(ph));
            }
            start += s.size(ph);
        }
        return worst;
    }

    private static List<DMatrixRMaj> releases(PhasedSgd opt, Problem p, PrivacyBudget b) {
        List<DMatrixRMaj> out = new ArrayList<>();
        PhasedSgd.Builder builder = PhasedSgd.builder().order(RecordOrder.GIVEN);
        builder.observer(new ReleaseObserver() {
            @Override
            public void gaussian(DMatrixRMaj value, double sensitivity, DpEvent event) {
                out.add(value.copy());
            }
        }).build().optimize(p, b, Rngs.seeded(3));
        return out;
    }

    private static double distance(DMatrixRMaj a, DMatrixRMaj b) {
        double s = 0;
        for (int i = 0; i < a.numRows; i++) {
            double t = a.data[i] - b.data[i];
            s += t * t;
        }
        return Math.sqrt(s);
    }
}
