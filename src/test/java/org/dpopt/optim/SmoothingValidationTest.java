package org.dpopt.optim;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpopt.bench.Plots;
import org.dpopt.data.BundledDatasets;
import org.dpopt.data.Dataset;
import org.dpopt.data.DatasetIO;
import org.dpopt.data.Splits;
import org.dpopt.geometry.ConvexSets;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Slow validation for validation/smoothing.md: writes CSV + PNG into validation/results/smoothing/.
 * Run: {@code mvn -o -Pvalidation test -Dtest=SmoothingValidationTest}.
 */
@Tag("slow")
class SmoothingValidationTest {
    private static final Path OUT = Path.of("validation/results/smoothing");

    private static void write(String name, StringBuilder csv) throws IOException {
        Files.createDirectories(OUT);
        Files.writeString(OUT.resolve(name), csv.toString());
    }

    /** Excess risk vs n: hard family (γ = c/√n) and a fixed distribution, Phased-SGD + bisection. */
    @Test
    void excessRiskVsN() throws IOException {
        HardLinearFamily fam = new HardLinearFamily(10, 10, 77);
        SvmProblem svm = SvmProblem.standard(400_000);
        PrivacyBudget b = PrivacyBudget.of(2, 1e-6);
        int[] ns = {1000, 4000, 16000, 64000, 256000, 1024000};
        int seeds = 20;
        StringBuilder csv = new StringBuilder("n,hard_mean_excess,hard_se,fixed_mean_excess,fixed_se,bound_shape,"
                + "seconds_per_run_hard\n");
        double[] x = new double[ns.length];
        double[] hard = new double[ns.length];
        double[] fixed = new double[ns.length];
        double[] bound = new double[ns.length];
        for (int k = 0; k < ns.length; k++) {
            int n = ns[k];
            double[] eh = new double[seeds];
            double[] ef = new double[seeds];
            long t = 0;
            for (int s = 0; s < seeds; s++) {
                Problem p = Problem.of(fam.sample(n, 1000L * k + s), Losses.hinge(), ConvexSets.l2Ball(1));
                long t0 = System.nanoTime();
                OptimizationResult r = PhasedSgd.defaults().optimize(p, b, Rngs.seeded(s));
                t += System.nanoTime() - t0;
                eh[s] = fam.excess(r.solution(), n);
                if (n <= 256000) {
                    Problem q = Problem.of(svm.sample(n, 5000L * k + s), Losses.hinge(), ConvexSets.l2Ball(svm.radius));
                    ef[s] = svm.risk(PhasedSgd.defaults().optimize(q, b, Rngs.seeded(s)).solution()) - svm.fStar;
                } else {
                    ef[s] = Double.NaN;
                }
            }
            x[k] = n;
            hard[k] = mean(eh);
            fixed[k] = mean(ef);
            bound[k] = 1 / Math.sqrt(n) + Math.sqrt(10 * Math.log(1e6)) / (2.0 * n);
            csv.append(String.format(Locale.ROOT, "%d,%.6g,%.3g,%.6g,%.3g,%.6g,%.4f%n", n, hard[k], se(eh), fixed[k],
                    se(ef), bound[k], t / 1e9 / seeds));
            System.out.println(csv);
        }
        write("excess_vs_n.csv", csv);
        double[] ref = new double[ns.length];
        double[] refB = new double[ns.length];
        for (int k = 0; k < ns.length; k++) {
            ref[k] = hard[2] * Math.sqrt((double) ns[2] / ns[k]);
            refB[k] = bound[k] * hard[2] / bound[2];
        }
        List<Plots.Series> series = new ArrayList<>();
        series.add(new Plots.Series("hard family (gamma = 10/sqrt n), mean of 20", x, hard));
        series.add(new Plots.Series("reference slope -1/2", x, ref));
        series.add(new Plots.Series("bound shape 1/sqrt n + sqrt(d ln(1/delta))/(eps n), scaled", x, refB));
        int kf = 5;
        series.add(new Plots.Series("fixed distribution (d=5, B=3)", java.util.Arrays.copyOf(x, kf),
                java.util.Arrays.copyOf(fixed, kf)));
        Plots.line(OUT.resolve("excess_vs_n.png"), "Phased-SGD + bisection, hinge, eps=2, delta=1e-6", "n",
                "excess population risk", series, true, true);
        // statistical regime: n ≥ 16000 (the private term √(d ln(1/δ))/(εn) is below 1/20 of 1/√n there).
        // Per-point relative standard error ≈ 0.1 (20 seeds) ⇒ slope standard error ≈ 0.1/√9.6 ≈ 0.03, so the
        // ±0.15 tolerance is ≈ 4.6σ (false failure < 1e−5 if the true exponent is −1/2).
        double slope = PhasedSgdExcessRiskTest.slope(logs(java.util.Arrays.copyOfRange(x, 2, 6)),
                logs(java.util.Arrays.copyOfRange(hard, 2, 6)));
        write("slope.txt", new StringBuilder(String.format(Locale.ROOT,
                "least-squares slope of log mean excess on log n, n = 16000..1024000: %.4f (theorem: -0.5)%n", slope)));
        assertTrue(Math.abs(slope + 0.5) <= 0.15, "slope " + slope);
    }

    private static double[] logs(double[] v) {
        double[] o = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            o[i] = Math.log(v[i]);
        }
        return o;
    }

    static double mean(double[] v) {
        double s = 0;
        for (double a : v) {
            s += a;
        }
        return s / v.length;
    }

    static double se(double[] v) {
        double m = mean(v);
        double s = 0;
        for (double a : v) {
            s += (a - m) * (a - m);
        }
        return Math.sqrt(s / (v.length - 1) / v.length);
    }
}
