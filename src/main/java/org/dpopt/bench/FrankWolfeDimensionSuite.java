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

    @Override
    public String name() {
        return "fw-dimension";
    }

    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception {
        int n = Integer.getInteger("fw.n", 2000);
        double eps = Double.parseDouble(System.getProperty("fw.eps", "2"));
        int reps = Integer.getInteger("fw.reps", quick ? 2 : 3);
        int maxD = Integer.getInteger("fw.maxd", quick ? 1000 : 100_000);
        int popSamples = Integer.getInteger("fw.pop", quick ? 5000 : 10_000);
        int k = 5;
        double c = 2.0;
        double radius = k * c;
        PrivacyBudget budget = PrivacyBudget.of(eps, 1e-6);
        GeneralizedLinearLoss loss = Losses.logistic();
        double[] lrs = {0.1, 0.3, 1.0, 3.0};
        List<Double> ds = new ArrayList<>();
        List<Double> fw = new ArrayList<>();
        List<Double> sgd = new ArrayList<>();
        List<Double> fwSd = new ArrayList<>();
        List<Double> sgdSd = new ArrayList<>();
        List<Double> trivial = new ArrayList<>();
        StringBuilder csv = new StringBuilder("d,n,epsilon,delta,seed,algorithm,excess_risk,train_loss,steps,"
                + "learning_rate,seconds\n");
        for (int d = 10; d <= maxD; d *= 10) {
            DMatrixRMaj ws = SparseLogistic.wStar(d, k, c);
            double[] fwRisk = new double[reps];
            double[] sgdRisk = new double[reps];
            for (int rep = 0; rep < reps; rep++) {
                UniformRandomProvider gen = Rngs.seeded(1000L * d + rep);
                Dataset data = SparseLogistic.sample(n, ws, k, gen);
                Problem p = Problem.of(data, loss, Polytopes.l1Ball(radius));
                long t0 = System.nanoTime();
                OptimizationResult r = NoisyFrankWolfe.builder().supNormBound(SparseLogistic.supNorm(d, k))
                        .diagnostics(true).build().optimize(p, budget, Rngs.seeded(rep));
                double sec = (System.nanoTime() - t0) / 1e9;
                fwRisk[rep] = SparseLogistic.excessRisk(loss, r.solution(), ws, k, popSamples, Rngs.seeded(99 + rep));
                csv.append(row(d, n, eps, rep, "noisy-frank-wolfe", fwRisk[rep],
                        r.nonPrivateDiagnostics().get(Diagnostic.TRAIN_LOSS), r.steps(), Double.NaN, sec));
                double best = Double.POSITIVE_INFINITY;
                for (double lr : lrs) {
                    t0 = System.nanoTime();
                    OptimizationResult s = NoisySgd.builder().batchSize(Math.max(1, n / 10)).epochs(10)
                            .clipNorm(1.0).learningRate(lr).diagnostics(true).build()
                            .optimize(p, budget, Rngs.seeded(rep));
                    sec = (System.nanoTime() - t0) / 1e9;
                    double risk = SparseLogistic.excessRisk(loss, s.solution(), ws, k, popSamples,
                            Rngs.seeded(99 + rep));
                    csv.append(row(d, n, eps, rep, "dp-sgd-l1-projection", risk,
                            s.nonPrivateDiagnostics().get(Diagnostic.TRAIN_LOSS), s.steps(), lr, sec));
                    best = Math.min(best, risk);
                }
                sgdRisk[rep] = best;
                progress.printf("d=%d rep=%d: noisy-FW excess %.4f, DP-SGD(best lr) excess %.4f%n", d, rep,
                        fwRisk[rep], sgdRisk[rep]);
                progress.flush();
            }
            double zero = SparseLogistic.excessRisk(loss, new DMatrixRMaj(d, 1), ws, k, popSamples, Rngs.seeded(99));
            csv.append(row(d, n, eps, 0, "zero-vector", zero, Math.log(2), 0, Double.NaN, 0));
            trivial.add(zero);
            ds.add((double) d);
            fw.add(mean(fwRisk));
            sgd.add(mean(sgdRisk));
            fwSd.add(sd(fwRisk));
            sgdSd.add(sd(sgdRisk));
            if ((long) d * 10 > Integer.MAX_VALUE) {
                break;
            }
        }
        Files.writeString(out.resolve("fw-dimension.csv"), csv.toString());
        double[] x = ds.stream().mapToDouble(Double::doubleValue).toArray();
        Plots.line(out.resolve("fw-dimension.png"), "Excess population risk vs d (n=" + n + ", eps=" + eps
                + ", delta=1e-6, l1 ball r=10)", "dimension d", "excess risk F(w) - F(w*)",
                List.of(new Plots.Series("noisy Frank-Wolfe (Alg. 3)", x, toArray(fw)),
                        new Plots.Series("DP-SGD + l1 projection (best lr)", x, toArray(sgd)),
                        new Plots.Series("w = 0 (trivial)", x, toArray(trivial))), true, false);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("n", n);
        s.put("epsilon", eps);
        for (int i = 0; i < x.length; i++) {
            s.put("d=" + (long) x[i] + " noisy-fw excess (sd)", String.format("%.4f (%.4f)", fw.get(i), fwSd.get(i)));
            s.put("d=" + (long) x[i] + " dp-sgd excess (sd)", String.format("%.4f (%.4f)", sgd.get(i), sgdSd.get(i)));
            s.put("d=" + (long) x[i] + " w=0 excess", String.format("%.4f", trivial.get(i)));
        }
        if (x.length >= 2) {
            s.put("noisy-fw slope log(excess) vs log d", slope(x, toArray(fw)));
            s.put("dp-sgd slope log(excess) vs log d", slope(x, toArray(sgd)));
        }
        return s;
    }

    private static String row(int d, int n, double eps, int seed, String alg, double risk, double train, long steps,
            double lr, double sec) {
        return d + "," + n + "," + eps + ",1e-6," + seed + "," + alg + "," + risk + "," + train + "," + steps + ","
                + (Double.isNaN(lr) ? "" : lr) + "," + sec + "\n";
    }

    private static double[] toArray(List<Double> l) {
        return l.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double a : v) {
            s += a;
        }
        return s / v.length;
    }

    private static double sd(double[] v) {
        double m = mean(v);
        double s = 0;
        for (double a : v) {
            s += (a - m) * (a - m);
        }
        return v.length > 1 ? Math.sqrt(s / (v.length - 1)) : 0;
    }

    /** Least-squares slope of log y on log x. */
    static double slope(double[] x, double[] y) {
        int m = x.length;
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (int i = 0; i < m; i++) {
            double lx = Math.log(x[i]);
            double ly = Math.log(Math.max(y[i], 1e-12));
            sx += lx;
            sy += ly;
            sxx += lx * lx;
            sxy += lx * ly;
        }
        return (m * sxy - sx * sy) / (m * sxx - sx * sx);
    }
}
