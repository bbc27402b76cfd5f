package org.dpopt.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.dpopt.accounting.GaussianMechanism;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Monte-Carlo audit of the accountants (see {@link AccountantAudit}). Seeds are fixed; each confidence
 * limit misses with probability at most α = 1e-6, so with the m checks below a false failure has
 * probability at most m·α (≈ 2e-4 for the fast grid, ≈ 2e-3 for the large one) — and, the seeds being
 * fixed, a run that passes keeps passing.
 */
class AccountantAuditTest {

    private static final double ALPHA = 1e-6;

    private static UniformRandomProvider rng(long seed) {
        return RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
    }

    @Test
    void estimatorCoversTheExactGaussianCurve() {
        // q = 1: the T-fold Gaussian with z is one Gaussian with z/√T (Balle–Wang), both directions
        AccountantAudit.Config c = new AccountantAudit.Config(2.0, 1.0, 4);
        for (double eps : new double[] {0, 0.5, 1}) {
            double exact = GaussianMechanism.delta(eps, 1.0);
            for (boolean remove : new boolean[] {true, false}) {
                AccountantAudit.Estimate e = AccountantAudit.estimate(c, eps, remove, 200_000, ALPHA, rng(7));
                assertTrue(e.lower() <= exact && exact <= e.upper(), eps + " " + remove + ": " + e + " vs " + exact);
                assertTrue(e.upper() - e.lower() < 0.01, "interval too wide: " + e);
            }
        }
    }

    @Test
    void fastGridEveryBoundRespectsTheConfidenceInterval() {
        List<AccountantAudit.Check> checks = AccountantAudit.audit(AccountantAudit.grid(false), 20_000, ALPHA, rng(42));
        List<String> bad = new ArrayList<>();
        for (AccountantAudit.Check c : checks) {
            if (!c.passed()) {
                bad.add(c.toString());
            }
        }
        assertTrue(bad.isEmpty(), String.join("\n", bad));
        assertTrue(checks.size() >= 60, "checks: " + checks.size());
    }

    @Test
    void auditCatchesTheOldTinyNoiseUnderReport() {
        // z = 0.03, q = 0.01, T = 1: the old PLD claimed ε = 0.0101 at δ = 1e-5, i.e. δ(0.0101) ≤ 1e-5;
        // a record is used with probability 0.01 and then identified, so δ(0.0101) is about 0.0099
        AccountantAudit.Config c = new AccountantAudit.Config(0.03, 0.01, 1);
        AccountantAudit.Estimate e = AccountantAudit.estimate(c, 0.0101, true, 50_000, ALPHA, rng(3));
        assertTrue(e.lower() > 1e-5 * 100, "the audit must flag the old claim: " + e);
        assertEquals(0.0099, e.mean(), 0.002);
    }

    @Test
    @Tag("slow")
    void largeGridEveryBoundRespectsTheConfidenceInterval() throws IOException {
        long t0 = System.nanoTime();
        List<AccountantAudit.Check> checks = AccountantAudit.audit(AccountantAudit.grid(true), 20_000, 200_000_000L, ALPHA,
                rng(2026));
        double secs = (System.nanoTime() - t0) / 1e9;
        List<String> lines = new ArrayList<>();
        lines.add("noise_multiplier,sampling_rate,steps,epsilon,samples,mc_remove,lcl_remove,ucl_remove,mc_add,lcl_add,ucl_add,"
                + "pld_upper,pld_lower,rdp_upper,passed");
        List<String> bad = new ArrayList<>();
        for (AccountantAudit.Check c : checks) {
            lines.add(String.format(Locale.ROOT, "%s,%s,%d,%.6g,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%s",
                    c.config().noiseMultiplier(), c.config().samplingRate(), c.config().steps(), c.epsilon(),
                    c.remove().samples(), c.remove().mean(), c.remove().lower(), c.remove().upper(), c.add().mean(),
                    c.add().lower(), c.add().upper(), c.pldUpper(), c.pldLower(), c.rdpUpper(), c.passed()));
            if (!c.passed()) {
                bad.add(c.toString());
            }
        }
        Path dir = Path.of("validation", "results", "accounting");
        Files.createDirectories(dir);
        Files.write(dir.resolve("accountant_audit.csv"), lines);
        System.out.printf(Locale.ROOT, "accountant audit: %d checks, %d failed, %.0f s%n", checks.size(), bad.size(), secs);
        assertTrue(bad.isEmpty(), String.join("\n", bad));
    }
}
