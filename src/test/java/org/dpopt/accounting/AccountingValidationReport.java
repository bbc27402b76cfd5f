package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.dpopt.bench.Plots;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Writes validation/results/accounting/: every reference row with our PLD upper/lower and RDP values
 * next to dp_accounting's (CSV), and ε(δ = 1e-5) against T for q = 0.01 (PNG). Run with
 * {@code mvn -o -Pvalidation test -Dtest=AccountingValidationReport}.
 */
@Tag("slow")
class AccountingValidationReport {

    @Test
    void writeReport() throws IOException {
        Path dir = Path.of("validation", "results", "accounting");
        Files.createDirectories(dir);
        PldAccountant pld = new PldAccountant();
        RdpAccountant rdp = new RdpAccountant();
        StringBuilder csv = new StringBuilder("query,sigma,q,T,target,pld_upper,pld_lower,dp_accounting_pld,"
                + "dp_accounting_pld_optimistic,rel_diff,rdp,rdp_reference,seconds\n");
        double worst = 0;
        for (Map<String, String> row : RefData.read("poisson_gaussian_public.csv")) {
            double z = RefData.num(row, "sigma");
            double q = RefData.num(row, "q");
            long t = (long) RefData.num(row, "T");
            double target = RefData.num(row, "target");
            boolean eps = "eps_for_delta".equals(row.get("query"));
            DpEvent e = new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(z)), t);
            long t0 = System.nanoTime();
            double up = eps ? pld.epsilon(e, target) : pld.delta(e, target);
            double low = eps ? pld.epsilonLower(e, target) : pld.deltaLower(e, target);
            double secs = (System.nanoTime() - t0) / 1e9;
            double r = eps ? rdp.epsilon(e, target) : rdp.delta(e, target);
            double stable = RefData.num(row, "pld_stable_value");
            double ref = !Double.isNaN(stable) ? stable : eps ? RefData.num(row, "pld_value")
                    : Math.min(1, RefData.num(row, "pld_value"));
            double rel = (up - ref) / ref;
            if (eps || ref >= 1e-9) {
                worst = Math.max(worst, Math.abs(rel));
            }
            csv.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%s,%.10g,%.10g,%.10g,%.10g,%.3e,%.10g,%.10g,%.3f%n",
                    row.get("query"), row.get("sigma"), row.get("q"), t, row.get("target"), up, low, ref,
                    RefData.num(row, "pld_optimistic_value"), rel, r, RefData.num(row, "rdp_signed_value"), secs));
        }
        Files.writeString(dir.resolve("pld_vs_dp_accounting.csv"), csv.toString());
        System.out.println("worst relative difference (eps rows and delta >= 1e-9): " + worst);

        for (double z : new double[] {0.8, 2.0}) {
            long[] ts = {1, 10, 100, 1000, 10_000};
            List<double[]> cols = new ArrayList<>();
            for (int k = 0; k < 5; k++) {
                cols.add(new double[ts.length]);
            }
            double[] x = new double[ts.length];
            for (int i = 0; i < ts.length; i++) {
                x[i] = ts[i];
                DpEvent e = new SelfComposedEvent(new PoissonSampledEvent(0.01, new GaussianEvent(z)), ts[i]);
                PrivacyReport rep = pld.report(e, 1e-5);
                cols.get(0)[i] = rep.epsilon();
                cols.get(1)[i] = Math.max(rep.epsilonLower(), 1e-4);
                cols.get(2)[i] = rdp.epsilon(e, 1e-5);
                for (Map<String, String> row : RefData.read("poisson_gaussian_public.csv")) {
                    if ("eps_for_delta".equals(row.get("query")) && RefData.num(row, "sigma") == z
                            && RefData.num(row, "q") == 0.01 && RefData.num(row, "T") == ts[i]
                            && RefData.num(row, "target") == 1e-5) {
                        cols.get(3)[i] = RefData.num(row, "pld_value");
                        cols.get(4)[i] = Math.max(RefData.num(row, "pld_optimistic_value"), 1e-4);
                    }
                }
            }
            Plots.line(dir.resolve(String.format(Locale.ROOT, "eps_vs_T_q0.01_sigma%.1f.png", z)),
                    "epsilon(delta=1e-5), Poisson q=0.01, sigma=" + z, "steps T", "epsilon",
                    List.of(new Plots.Series("dpopt PLD upper", x, cols.get(0)),
                            new Plots.Series("dpopt PLD lower", x, cols.get(1)),
                            new Plots.Series("dpopt RDP", x, cols.get(2)),
                            new Plots.Series("dp_accounting PLD pessimistic", x, cols.get(3)),
                            new Plots.Series("dp_accounting PLD optimistic", x, cols.get(4))),
                    true, true);
        }
        assertTrue(worst < 0.005, "worst " + worst);
    }
}
