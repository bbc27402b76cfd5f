package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The reference generator itself: it reproduces the independent values shipped in
 * {@code exact_hard_points_public.csv} (60-digit single-step closed form; saddle-point inversion) and
 * the rows of {@code exact_reference.csv} it wrote. Deterministic.
 */
class ExactReferenceTest {

    @Test
    void reproducesTheSharedHardPointsAndItsOwnTable() {
        for (Map<String, String> row : RefData.read("exact_hard_points_public.csv")) {
            double z = RefData.num(row, "noise_multiplier");
            double q = RefData.num(row, "sampling_rate");
            long t = (long) RefData.num(row, "steps");
            double delta = RefData.num(row, "delta");
            double truth = RefData.num(row, "true_epsilon");
            if (t > 1 && t * q > 400) {
                continue; // the slowest contour rows run in the slow suite
            }
            ExactReference.Row r = ExactReference.epsilon(z, q, t, delta);
            String id = "z=" + z + " q=" + q + " T=" + t;
            // the shared values carry 6 to 12 digits
            assertEquals(truth, 0.5 * (r.epsilonLow() + r.epsilonHigh()), 2e-6 * truth, id);
        }
        int rows = 0;
        for (Map<String, String> row : RefData.read("exact_reference.csv")) {
            double z = RefData.num(row, "noise_multiplier");
            long t = (long) RefData.num(row, "steps");
            if (!(t == 1 || z <= 0.05)) {
                continue; // contour rows: slow suite
            }
            ExactReference.Row r = ExactReference.epsilon(z, RefData.num(row, "sampling_rate"), t, RefData.num(row, "delta"));
            assertEquals(RefData.num(row, "epsilon_low"), r.epsilonLow(), 1e-9 * r.epsilonLow());
            assertEquals(RefData.num(row, "epsilon_high"), r.epsilonHigh(), 1e-9 * r.epsilonHigh());
            rows++;
        }
        assertTrue(rows >= 20);
    }

    @Test
    @Tag("slow")
    void reproducesEveryContourRow() {
        for (String file : new String[] {"exact_hard_points_public.csv", "exact_reference.csv"}) {
            for (Map<String, String> row : RefData.read(file)) {
                double z = RefData.num(row, "noise_multiplier");
                double q = RefData.num(row, "sampling_rate");
                long t = (long) RefData.num(row, "steps");
                double delta = RefData.num(row, "delta");
                if (t == 1 || z <= 0.05) {
                    continue;
                }
                ExactReference.Row r = ExactReference.epsilon(z, q, t, delta);
                double expected = row.containsKey("true_epsilon") ? RefData.num(row, "true_epsilon")
                        : RefData.num(row, "epsilon_low");
                double got = row.containsKey("true_epsilon") ? 0.5 * (r.epsilonLow() + r.epsilonHigh()) : r.epsilonLow();
                assertEquals(expected, got, 2e-6 * expected, file + " z=" + z + " q=" + q + " T=" + t);
            }
        }
    }

    @Test
    void contourIntegralAgreesWithTheGaussianClosedForm() {
        // q = 1: T Gaussian releases with multiplier z are one with z/√T (Balle–Wang curve)
        for (double eps : new double[] {0.5, 2, 5}) {
            double exact = Math.log(GaussianMechanism.delta(eps, 1.0));
            for (boolean remove : new boolean[] {true, false}) {
                double got = ExactReference.logDeltaContour(1.0, 2.0, 4, eps, remove, 2);
                assertEquals(exact, got, 1e-8 * Math.abs(exact), "eps=" + eps + " remove=" + remove);
            }
        }
    }
}
