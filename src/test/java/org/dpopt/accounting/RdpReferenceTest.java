package org.dpopt.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The RDP accountant against exact RDP of the subsampled Gaussian (refdata column
 * {@code rdp_signed_value}: dp_accounting's default orders, improved conversion) and the
 * moments-accountant numbers of theory-notes/test-oracles.md §3; and RDP ≥ PLD (RDP is the looser upper bound).
 */
class RdpReferenceTest {

    private static DpEvent sgd(double q, double z, long t) {
        return new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(z)), t);
    }

    @Test
    void matchesExactRdpReferenceWithinOneTenthPercent() {
        RdpAccountant rdp = new RdpAccountant();
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (Map<String, String> row : RefData.read("poisson_gaussian_public.csv")) {
            double z = RefData.num(row, "sigma");
            double q = RefData.num(row, "q");
            long t = (long) RefData.num(row, "T");
            double target = RefData.num(row, "target");
            double ref = RefData.num(row, "rdp_signed_value");
            boolean eps = "eps_for_delta".equals(row.get("query"));
            double ours = eps ? rdp.epsilon(sgd(q, z, t), target) : rdp.delta(sgd(q, z, t), target);
            if (!eps && ref < 1e-300) {
                // below double range: only require ours to be tiny too
                if (ours > 1e-290) {
                    failures.add(row + " ours " + ours);
                }
                continue;
            }
            checked++;
            if (Math.abs(ours - ref) > 1e-3 * ref) {
                failures.add("sigma=" + z + " q=" + q + " T=" + t + " " + row.get("query") + " " + target + ": ours " + ours
                        + " vs " + ref + " (ref order " + row.get("rdp_signed_opt_order") + ")");
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " mismatches:\n" + String.join("\n", failures));
        assertTrue(checked > 200);
    }

    @Test
    void coarseQuadratureAgreesWithFineQuadratureAtFractionalOrders() {
        // reference: the same integral with spacing z/80 on a wider range [−20z, α + 20z]
        for (double z : new double[] {0.3, 0.5, 0.8, 1, 2, 4, 10}) {
            for (double q : new double[] {0.001, 0.05, 0.5}) {
                for (double a : new double[] {1.1, 1.5, 2.7, 7.3, 10.9}) {
                    double fine = fineLogA(q, z, a);
                    double got = SampledGaussianRdp.logAFractional(q, z, a);
                    assertEquals(fine, got, 1e-9 * Math.max(1, Math.abs(fine)), "q=" + q + " z=" + z + " a=" + a);
                }
            }
        }
    }

    private static double fineLogA(double q, double z, double a) {
        double h = z / 80;
        double lo = -20 * z;
        int m = (int) Math.ceil((a + 40 * z) / h);
        double max = Double.NEGATIVE_INFINITY;
        double[] v = new double[m + 1];
        for (int k = 0; k <= m; k++) {
            double x = lo + k * h;
            double u = (2 * x - 1) / (2 * z * z);
            double inner = u > 0 ? u + Math.log(q + (1 - q) * Math.exp(-u)) : Math.log1p(q * Math.expm1(u));
            v[k] = -x * x / (2 * z * z) + a * inner;
            max = Math.max(max, v[k]);
        }
        double sum = 0;
        for (double x : v) {
            sum += Math.exp(x - max);
        }
        return max + Math.log(sum * h / (z * Math.sqrt(2 * Math.PI)));
    }

    @Test
    void reproducesMomentsAccountantExample() {
        // theory-notes/test-oracles.md §3 (Abadi et al. 2016): q = 0.01, z = 4, T = 1e4, δ = 1e-5
        double[] integerOrders = new double[255];
        for (int i = 0; i < integerOrders.length; i++) {
            integerOrders[i] = i + 2;
        }
        RdpAccountant classic = new RdpAccountant(integerOrders, RdpAccountant.Conversion.CLASSIC,
                NeighboringRelation.ADD_OR_REMOVE_ONE);
        RdpAccountant improved = new RdpAccountant(integerOrders, RdpAccountant.Conversion.IMPROVED,
                NeighboringRelation.ADD_OR_REMOVE_ONE);
        assertEquals(1.2586, classic.epsilon(sgd(0.01, 4, 10_000), 1e-5), 5e-5);
        assertEquals(1.0355, improved.epsilon(sgd(0.01, 4, 10_000), 1e-5), 5e-5);
        assertEquals(2.5383, classic.epsilon(sgd(0.01, 1, 1000), 1e-5), 5e-5);
        assertEquals(2.1078, improved.epsilon(sgd(0.01, 1, 1000), 1e-5), 5e-5);
        assertEquals(6.2798, classic.epsilon(sgd(0.01, 1.1, 10_000), 1e-5), 5e-5);
        assertEquals(5.6543, improved.epsilon(sgd(0.01, 1.1, 10_000), 1e-5), 5e-5);
    }

    @Test
    void rdpIsNeverTighterThanPld() {
        RdpAccountant rdp = new RdpAccountant();
        PldAccountant pld = new PldAccountant();
        for (double[] c : new double[][] {{0.01, 1, 1000}, {0.05, 2, 300}, {0.001, 0.8, 100}, {0.2, 3, 50}}) {
            DpEvent e = sgd(c[0], c[1], (long) c[2]);
            for (double delta : new double[] {1e-5, 1e-8}) {
                double r = rdp.epsilon(e, delta);
                double p = pld.epsilon(e, delta);
                assertTrue(r >= p, "q=" + c[0] + " z=" + c[1] + " T=" + c[2] + ": rdp " + r + " < pld " + p);
            }
            assertTrue(rdp.delta(e, 1.0) >= pld.delta(e, 1.0));
        }
        // theory-notes/test-oracles.md §3: q = 0.01, σ = 1, T = 1000 ⇒ PLD ε ∈ [1.8181, 1.8383] while RDP gives 2.1078
        double p = pld.epsilon(sgd(0.01, 1, 1000), 1e-5);
        assertTrue(p >= 1.8181 && p <= 1.8383, "pld " + p);
    }
}
