package org.dpopt.optim.smoothing;

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
import org.dpopt.optim.Diagnostic;
import org.dpopt.eval.Metrics;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.oracle.MoreauEnvelopeOracle;
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

    /** Gradient-evaluation counts: Phased-SGD + bisection (measured) vs ProxSgd (measured where feasible, planned). */
    @Test
    void gradientEvaluationCounts() throws IOException {
        HardLinearFamily fam = new HardLinearFamily(10, 10, 77);
        PrivacyBudget b = PrivacyBudget.of(2, 1e-6);
        int[] ns = {1000, 2000, 4000, 16000, 64000, 256000, 1024000};
        int d = 10;
        StringBuilder csv = new StringBuilder("n,phased_per_example,phased_scalar_calls,phased_seconds,"
                + "prox_measured_inner_evals,prox_seconds,prox_planned_alpha_L_over_sqrt_n,prox_planned_alpha_L_over_n\n");
        double[] x = new double[ns.length];
        double[] ph = new double[ns.length];
        double[] calls = new double[ns.length];
        double[] proxPlanned = new double[ns.length];
        double[] proxPaper = new double[ns.length];
        List<double[]> proxMeasured = new ArrayList<>();
        for (int k = 0; k < ns.length; k++) {
            int n = ns[k];
            Problem p = Problem.of(fam.sample(n, 7L * k), Losses.hinge(), ConvexSets.l2Ball(1));
            long t0 = System.nanoTime();
            OptimizationResult r = PhasedSgd.builder().diagnostics(true).build().optimize(p, b, Rngs.seeded(k));
            double sec = (System.nanoTime() - t0) / 1e9;
            x[k] = n;
            ph[k] = r.nonPrivateDiagnostics().get(Diagnostic.GRADIENT_EVALUATIONS);
            calls[k] = r.nonPrivateDiagnostics().get(Diagnostic.SCALAR_SUBGRADIENT_CALLS);
            double li = Math.log(1e6);
            double t = Math.floor(Math.min(n / 8.0, 4.0 * n * (double) n / (32 * d * li)));
            double m = Math.min(n, Math.ceil(Math.max(n * Math.sqrt(2 / (4 * t)), 1)));
            proxPlanned[k] = t * m * MoreauEnvelopeOracle.innerStepsFor(1, 1 / Math.sqrt(n));
            proxPaper[k] = t * m * (16.0 * n * n - 1);
            String measured = ",";
            if (n <= 2000) {
                long t1 = System.nanoTime();
                OptimizationResult q = ProxSgd.builder().diagnostics(true).build().optimize(p, b, Rngs.seeded(k));
                double s2 = (System.nanoTime() - t1) / 1e9;
                double inner = q.nonPrivateDiagnostics().get(Diagnostic.INNER_GRADIENT_EVALUATIONS);
                proxMeasured.add(new double[] {n, inner});
                measured = (long) inner + "," + String.format(Locale.ROOT, "%.3f", s2);
            }
            csv.append(String.format(Locale.ROOT, "%d,%.0f,%.0f,%.4f,%s,%.4g,%.4g%n", n, ph[k], calls[k], sec, measured,
                    proxPlanned[k], proxPaper[k]));
            System.out.print(csv);
        }
        write("gradient_evaluations.csv", csv);
        double[] mx = new double[proxMeasured.size()];
        double[] my = new double[proxMeasured.size()];
        for (int i = 0; i < mx.length; i++) {
            mx[i] = proxMeasured.get(i)[0];
            my[i] = proxMeasured.get(i)[1];
        }
        List<Plots.Series> series = new ArrayList<>();
        series.add(new Plots.Series("phased-sgd: per-example gradients", x, ph));
        series.add(new Plots.Series("phased-sgd: scalar subgradient calls (bisection)", x, calls));
        series.add(new Plots.Series("prox-sgd (alpha = L/sqrt n): measured inner evaluations", mx, my));
        series.add(new Plots.Series("prox-sgd (alpha = L/sqrt n): planned", x, proxPlanned));
        series.add(new Plots.Series("prox-sgd (paper alpha = L/n): planned", x, proxPaper));
        Plots.line(OUT.resolve("gradient_evaluations.png"), "Gradient evaluations vs n (hinge, d=10, eps=2)", "n",
                "evaluations", series, true, true);
        double sPh = PhasedSgdExcessRiskTest.slope(logs(x), logs(calls));
        double sProx = PhasedSgdExcessRiskTest.slope(logs(x), logs(proxPlanned));
        double sPaper = PhasedSgdExcessRiskTest.slope(logs(x), logs(proxPaper));
        write("gradient_slopes.txt", new StringBuilder(String.format(Locale.ROOT,
                "log-log slopes of evaluations vs n: phased-sgd scalar calls %.3f, prox-sgd planned (alpha=L/sqrt n) %.3f, "
                        + "prox-sgd planned (alpha=L/n) %.3f%n", sPh, sProx, sPaper)));
        assertTrue(sPh < 1.15 && sProx > 2 && sPaper > 3);
        for (int k = 0; k < ns.length; k++) {
            assertTrue(ph[k] <= ns[k]);
        }
    }

    /**
     * The shared data folder: {@code -Ddpopt.shared.data=DIR}, else {@code $DPOPT_SHARED/data}, else
     * {@code ../shared/data}. The Adult files must be there (the test fails, it does not skip).
     */
    static Path sharedData() {
        String prop = System.getProperty("dpopt.shared.data");
        if (prop != null) {
            return Path.of(prop);
        }
        String env = System.getenv("DPOPT_SHARED");
        return env != null ? Path.of(env, "data") : Path.of("../shared/data");
    }

    private static Splits.Split adult() {
        Path dir = sharedData();
        assertTrue(Files.isRegularFile(dir.resolve("adult_train.csv")), "Adult not found in " + dir.toAbsolutePath()
                + " (set -Ddpopt.shared.data or DPOPT_SHARED)");
        Dataset train = DatasetIO.readCsv(dir.resolve("adult_train.csv"), 1.0, DatasetIO.RowNormPolicy.PROJECT).dataset();
        Dataset test = DatasetIO.readCsv(dir.resolve("adult_test.csv"), 1.0, DatasetIO.RowNormPolicy.PROJECT).dataset();
        return new Splits.Split(train, test);
    }

    /** Held-out accuracy of phased-sgd (hinge) vs dp-sgd (logistic, CLI defaults) at the same (ε, δ). */
    @Test
    void realDataAccuracy() throws IOException {
        List<String> names = new ArrayList<>(BundledDatasets.NAMES);
        names.add("adult");
        int seeds = 10;
        double delta = 1e-5;
        StringBuilder csv = new StringBuilder("dataset,n_train,n_test,epsilon,delta,algorithm,loss,relation,"
                + "accuracy_mean,accuracy_std,runs\n");
        for (String name : names) {
            Splits.Split split = "adult".equals(name) ? adult() : BundledDatasets.split(name);
            for (double eps : new double[] {1, 4}) {
                PrivacyBudget b = PrivacyBudget.of(eps, delta);
                Dataset tr = split.train();
                run(csv, name, split, b, "phased-sgd(unconstrained D=sqrt d; CLI default)", "hinge",
                        PhasedSgd.defaults(), Problem.of(tr, Losses.hinge()), seeds);
                run(csv, name, split, b, "phased-sgd(unconstrained D=1)", "hinge",
                        PhasedSgd.builder().comparatorRadius(1).build(), Problem.of(tr, Losses.hinge()), seeds);
                run(csv, name, split, b, "phased-sgd(ball r=sqrt d/2)", "hinge", PhasedSgd.defaults(),
                        Problem.of(tr, Losses.hinge(), ConvexSets.l2Ball(Math.sqrt(tr.dimension()) / 2)), seeds);
                run(csv, name, split, b, "phased-sgd(unconstrained D=sqrt d)", "logistic",
                        PhasedSgd.defaults(), Problem.of(tr, Losses.logistic()), seeds);
                run(csv, name, split, b, "dp-sgd(defaults)", "logistic",
                        NoisySgd.builder().build(), Problem.of(tr, Losses.logistic()), seeds);
                run(csv, name, split, b, "dp-sgd(defaults)", "hinge",
                        NoisySgd.builder().build(), Problem.of(tr, Losses.hinge()), seeds);
                if (!"adult".equals(name)) {
                    run(csv, name, split, b, "prox-sgd(practical 5 epochs)", "hinge",
                            ProxSgd.builder().noisySgd(NoisySgd.builder().epochs(5).build()).build(),
                            Problem.of(tr, Losses.hinge()), seeds);
                }
                System.out.print(csv);
            }
        }
        write("real_data_accuracy.csv", csv);
    }

    private static void run(StringBuilder csv, String name, Splits.Split split, PrivacyBudget b, String alg, String loss,
            PrivateOptimizer opt, Problem p, int seeds) {
        double[] acc = new double[seeds];
        String relation = "";
        for (int s = 0; s < seeds; s++) {
            OptimizationResult r = opt.optimize(p, b, Rngs.seeded(100 + s));
            acc[s] = Metrics.accuracy(r.solution(), split.test());
            relation = r.privacy().relation().toString();
        }
        double m = mean(acc);
        double sd = se(acc) * Math.sqrt(seeds);
        csv.append(String.format(Locale.ROOT, "%s,%d,%d,%.1f,%.0e,%s,%s,%s,%.4f,%.4f,%d%n", name, split.train().size(),
                split.test().size(), b.epsilon(), b.delta(), alg, loss, relation, m, sd, seeds));
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
