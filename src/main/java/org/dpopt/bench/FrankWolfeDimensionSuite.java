package org.dpopt.bench;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.dpopt.data.Dataset;
import org.dpopt.data.SparseLogistic;
import org.dpopt.geometry.Polytopes;
import org.dpopt.loss.GeneralizedLinearLoss;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.optim.Preset;
import org.dpopt.optim.frankwolfe.NoisyFrankWolfe;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.Diagnostic;
import org.dpopt.optim.OptimizationResult;
import org.dpopt.optim.PrivacyBudget;
import org.ejml.data.DMatrixRMaj;

/**
 * {@code dpopt bench --suite fw-dimension}: excess population risk against the dimension d at fixed n
 * on the sparse logistic model ({@link SparseLogistic}: k = 5 signal coordinates, ‖w*‖₁ = 10, W the ℓ1
 * ball of radius 10), for noisy Frank–Wolfe (BGM21 Alg. 3, replace-one) and DP-SGD with Euclidean
 * projection onto the same ℓ1 ball (Poisson batches, add/remove — a weaker relation, so the comparison
 * favours DP-SGD; its learning rate is picked non-privately as the best of a small grid, which also
 * favours it). Excess risk F(ŵ) − F(w*) is a paired Monte Carlo estimate on fresh rows.
 *
 * <p>Sizes: n = 2000, ε = 2, δ = 1e-6, d ∈ {10, 100, 1000, 10⁴, 10⁵} (quick: d ≤ 1000), several seeds.
 * System properties {@code fw.n}, {@code fw.eps}, {@code fw.reps}, {@code fw.maxd} override them.
 */
final class FrankWolfeDimensionSuite implements BenchSuite {

    /** The sizes of one run (system properties over the defaults). */
    private record Setup(int n, double eps, int reps, int maxD, int popSamples) {
        static Setup fromProperties(boolean quick) {
            return new Setup(Integer.getInteger("fw.n", 2000), Double.parseDouble(System.getProperty("fw.eps", "2")),
                    Integer.getInteger("fw.reps", quick ? 2 : 3), Integer.getInteger("fw.maxd", quick ? 1000 : 100_000),
                    Integer.getInteger("fw.pop", quick ? 5000 : 10_000));
        }

        PrivacyBudget budget() {
            return PrivacyBudget.of(eps, 1e-6);
        }
    }

    /** The measured excess risks at one dimension (mean and sd over the seeds; w = 0 once). */
    private record Point(double d, double fw, double fwSd, double sgd, double sgdSd, double trivial) {
    }

    private static final int K = 5;
    private static final double C = 2.0;
    private static final double RADIUS = K * C;
    private static final double[] LEARNING_RATES = {0.1, 0.3, 1.0, 3.0};
    private static final GeneralizedLinearLoss LOSS = Losses.logistic();

    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception {
        Setup setup = Setup.fromProperties(quick);
        List<Point> points = new ArrayList<>();
        StringBuilder csv = new StringBuilder("d,n,epsilon,delta,seed,algorithm,excess_risk,train_loss,steps,"
                + "learning_rate,seconds\n");
        for (int d = 10; d <= setup.maxD(); d *= 10) {
            points.add(measure(d, setup, csv, progress));
            if ((long) d * 10 > Integer.MAX_VALUE) {
                break;
            }
        }
        Files.writeString(out.resolve("fw-dimension.csv"), csv.toString());
        plot(out, setup, points);
        return summary(setup, points);
    }

    /** All seeds at dimension d: noisy Frank–Wolfe, DP-SGD at its best learning rate, and w = 0. */
    private static Point measure(int d, Setup setup, StringBuilder csv, PrintWriter progress) {
        DMatrixRMaj ws = SparseLogistic.wStar(d, K, C);
        double[] fwRisk = new double[setup.reps()];
        double[] sgdRisk = new double[setup.reps()];
        for (int rep = 0; rep < setup.reps(); rep++) {
            UniformRandomProvider gen = Rngs.seeded(1000L * d + rep);
            Dataset data = SparseLogistic.sample(setup.n(), ws, K, gen);
            Problem p = Problem.of(data, LOSS, Polytopes.l1Ball(RADIUS));
            fwRisk[rep] = frankWolfeRisk(p, d, rep, ws, setup, csv);
            sgdRisk[rep] = bestSgdRisk(p, d, rep, ws, setup, csv);
            progress.printf("d=%d rep=%d: noisy-FW excess %.4f, DP-SGD(best lr) excess %.4f%n", d, rep,
                    fwRisk[rep], sgdRisk[rep]);
            progress.flush();
        }
        double zero = SparseLogistic.excessRisk(LOSS, new DMatrixRMaj(d, 1), ws, K, setup.popSamples(), Rngs.seeded(99));
        csv.append(row(d, setup.n(), setup.eps(), 0, "zero-vector", zero, Math.log(2), 0, Double.NaN, 0));
        return new Point(d, BenchStats.mean(fwRisk), BenchStats.sd(fwRisk), BenchStats.mean(sgdRisk),
                BenchStats.sd(sgdRisk), zero);
    }

    private static double frankWolfeRisk(Problem p, int d, int rep, DMatrixRMaj ws, Setup setup, StringBuilder csv) {
        long t0 = System.nanoTime();
        OptimizationResult r = NoisyFrankWolfe.builder().preset(Preset.PAPER).supNormBound(SparseLogistic.supNorm(d, K))
                .diagnostics(true).build().optimize(p, setup.budget(), Rngs.seeded(rep));
        double sec = (System.nanoTime() - t0) / 1e9;
        double risk = SparseLogistic.excessRisk(LOSS, r.solution(), ws, K, setup.popSamples(), Rngs.seeded(99 + rep));
        csv.append(row(d, setup.n(), setup.eps(), rep, "noisy-frank-wolfe", risk,
                r.nonPrivateDiagnostics().get(Diagnostic.TRAIN_LOSS), r.steps(), Double.NaN, sec));
        return risk;
    }

    /** DP-SGD with ℓ1 projection at each learning rate of the grid; the smallest excess risk (non-private pick). */
    private static double bestSgdRisk(Problem p, int d, int rep, DMatrixRMaj ws, Setup setup, StringBuilder csv) {
        double best = Double.POSITIVE_INFINITY;
        for (double lr : LEARNING_RATES) {
            long t0 = System.nanoTime();
            OptimizationResult s = NoisySgd.builder().batchSize(Math.max(1, setup.n() / 10)).epochs(10)
                    .clipNorm(1.0).learningRate(lr).diagnostics(true).build()
                    .optimize(p, setup.budget(), Rngs.seeded(rep));
            double sec = (System.nanoTime() - t0) / 1e9;
            double risk = SparseLogistic.excessRisk(LOSS, s.solution(), ws, K, setup.popSamples(),
                    Rngs.seeded(99 + rep));
            csv.append(row(d, setup.n(), setup.eps(), rep, "dp-sgd-l1-projection", risk,
                    s.nonPrivateDiagnostics().get(Diagnostic.TRAIN_LOSS), s.steps(), lr, sec));
            best = Math.min(best, risk);
        }
        return best;
    }

    private static void plot(Path out, Setup setup, List<Point> points) throws java.io.IOException {
        double[] x = column(points, Point::d);
        Plots.line(out.resolve("fw-dimension.png"), "Excess population risk vs d (n=" + setup.n() + ", eps="
                + setup.eps() + ", delta=1e-6, l1 ball r=10)", "dimension d", "excess risk F(w) - F(w*)",
                List.of(new Plots.Series("noisy Frank-Wolfe (Alg. 3)", x, column(points, Point::fw)),
                        new Plots.Series("DP-SGD + l1 projection (best lr)", x, column(points, Point::sgd)),
                        new Plots.Series("w = 0 (trivial)", x, column(points, Point::trivial))), true, false);
    }

    private static Map<String, Object> summary(Setup setup, List<Point> points) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("n", setup.n());
        s.put("epsilon", setup.eps());
        for (Point pt : points) {
            s.put("d=" + (long) pt.d() + " noisy-fw excess (sd)", String.format("%.4f (%.4f)", pt.fw(), pt.fwSd()));
            s.put("d=" + (long) pt.d() + " dp-sgd excess (sd)", String.format("%.4f (%.4f)", pt.sgd(), pt.sgdSd()));
            s.put("d=" + (long) pt.d() + " w=0 excess", String.format("%.4f", pt.trivial()));
        }
        if (points.size() >= 2) {
            double[] x = column(points, Point::d);
            s.put("noisy-fw slope log(excess) vs log d", BenchStats.logLogSlope(x, column(points, Point::fw)));
            s.put("dp-sgd slope log(excess) vs log d", BenchStats.logLogSlope(x, column(points, Point::sgd)));
        }
        return s;
    }

    private static double[] column(List<Point> points, java.util.function.ToDoubleFunction<Point> f) {
        return points.stream().mapToDouble(f).toArray();
    }

    private static String row(int d, int n, double eps, int seed, String alg, double risk, double train, long steps,
            double lr, double sec) {
        return d + "," + n + "," + eps + ",1e-6," + seed + "," + alg + "," + risk + "," + train + "," + steps + ","
                + (Double.isNaN(lr) ? "" : lr) + "," + sec + "\n";
    }
}
