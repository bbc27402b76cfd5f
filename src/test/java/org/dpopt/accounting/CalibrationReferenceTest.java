package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Noise calibration against dp_accounting's {@code calibrate_dp_mechanism}
 * (refdata/accounting/calibration_public.csv): same σ to 3 significant digits, and never overshooting
 * (the returned σ meets the target under our own accountant).
 */
class CalibrationReferenceTest {

    private static DpEvent sgd(double q, double z, long t) {
        return new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(z)), t);
    }

    private static void checkRow(Map<String, String> row, PrivacyAccountant acc, String column) {
        double eps = RefData.num(row, "target_eps");
        double delta = RefData.num(row, "target_delta");
        double q = RefData.num(row, "q");
        long t = (long) RefData.num(row, "T");
        double ref = RefData.num(row, column);
        double z = Calibration.noiseMultiplier(acc, s -> sgd(q, s, t), eps, delta);
        String id = acc.name() + " eps=" + eps + " T=" + t;
        assertEquals(ref, z, 1e-3 * ref, id);
        assertTrue(acc.epsilon(sgd(q, z, t), delta) <= eps, id + " overshoots");
        // and the bracket is tight: 0.1% less noise is over budget
        assertTrue(acc.epsilon(sgd(q, z * (1 - 1e-3), t), delta) > eps, id + " not the smallest");
    }

    @Test
    void rdpCalibrationMatchesEveryRow() {
        for (Map<String, String> row : RefData.read("calibration_public.csv")) {
            checkRow(row, new RdpAccountant(), "sigma_rdp_signed");
        }
    }

    @Test
    void pldCalibrationMatchesOneRow() {
        List<Map<String, String>> rows = RefData.read("calibration_public.csv");
        checkRow(rows.get(1), new PldAccountant(), "sigma_pld");
    }

    @Test
    @Tag("slow")
    void pldCalibrationMatchesEveryRow() {
        for (Map<String, String> row : RefData.read("calibration_public.csv")) {
            checkRow(row, new PldAccountant(), "sigma_pld");
        }
    }

    @Test
    void stepsAndSamplingRateAreThePrivacySafeEnd() {
        PldAccountant pld = new PldAccountant();
        long t = Calibration.steps(pld, n -> sgd(0.01, 1.0, n), 1.0, 1e-5, 100_000);
        assertTrue(pld.epsilon(sgd(0.01, 1.0, t), 1e-5) <= 1.0);
        assertTrue(pld.epsilon(sgd(0.01, 1.0, t + 1), 1e-5) > 1.0);
        double q = Calibration.samplingRate(pld, r -> sgd(r, 1.0, 1000), 1.0, 1e-5);
        assertTrue(pld.epsilon(sgd(q, 1.0, 1000), 1e-5) <= 1.0);
        assertTrue(pld.epsilon(sgd(q * 1.001, 1.0, 1000), 1e-5) > 1.0);
    }

    @Test
    void unreachableBudgetIsRefused() {
        PldAccountant pld = new PldAccountant();
        // a fixed (1, 0.1)-DP part can never meet δ = 1e-3, however much Gaussian noise is added
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Calibration.noiseMultiplier(pld,
                z -> ComposedEvent.of(new GaussianEvent(z), new EpsilonDeltaEvent(1, 0.1)), 5, 1e-3));
        assertTrue(e.getMessage().contains("must be reachable"), e.getMessage());
        // a single (1, 0.1)-DP release can never reach δ = 1e-3 at any ε: no step count works
        assertThrows(IllegalArgumentException.class,
                () -> Calibration.steps(pld, n -> new SelfComposedEvent(new EpsilonDeltaEvent(1, 0.1), n), 5, 1e-3, 100));
    }
}
