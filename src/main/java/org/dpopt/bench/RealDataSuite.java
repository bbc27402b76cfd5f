package org.dpopt.bench;

import java.io.BufferedReader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.dpopt.data.Dataset;
import org.dpopt.data.DatasetIO;
import org.dpopt.loss.Losses;
import org.dpopt.loss.Problem;
import org.dpopt.noise.Rngs;
import org.dpopt.eval.Metrics;
import org.dpopt.optim.sgd.NoisySgd;
import org.dpopt.optim.PrivacyBudget;
import org.dpopt.optim.PrivateOptimizer;

/**
 * {@code dpopt bench --suite real-data}: test accuracy of dpopt's classifiers on the real datasets of
 * the shared data folder (fixed train/test files), against the peers' numbers in
 * {@code refdata/peers-accuracy.csv} (diffprivlib 0.6.6, Opacus 1.4.0), at ε ∈ {0.5, 1, 2, 5}, δ = 1e-5.
 * The shared folder is found at {@code $DPOPT_SHARED} or {@code ../shared}; Adult is read from there and
 * never copied into the project.
 */
final class RealDataSuite implements BenchSuite {

    /** The algorithms compared (default settings; add more here). */
    static Map<String, Supplier<PrivateOptimizer>> algorithms() {
        Map<String, Supplier<PrivateOptimizer>> m = new LinkedHashMap<>();
        m.put("dpopt dp-sgd", () -> NoisySgd.builder().build());
        return m;
    }

    @Override
    public String name() {
        return "real-data";
    }

    static Path sharedDir() {
        String env = System.getenv("DPOPT_SHARED");
        return env != null ? Path.of(env) : Path.of("..", "shared");
    }

    /** The target ε of the comparison (δ = 1e-5). */
    private static final double[] EPSILONS = {0.5, 1, 2, 5};

    /** One dataset of the comparison: its training problem, its test rows and the runs per cell. */
    private record Study(String name, Problem problem, Dataset test, int runs) {
    }

    @Override
    public Map<String, Object> run(Path out, boolean quick, PrintWriter progress) throws Exception {
        Path shared = sharedDir();
        Path data = shared.resolve("data");
        if (!Files.isDirectory(data)) {
            throw new IllegalArgumentException("shared data folder must exist (set DPOPT_SHARED) but was " + data);
        }
        List<String> names = quick ? List.of("breast_cancer") : List.of("breast_cancer", "heart_scale", "diabetes", "adult");
        Map<String, Double> peers = readPeers(shared.resolve("refdata/peers-accuracy.csv"));
        StringBuilder csv = new StringBuilder("dataset,algorithm,epsilon,delta,runs,accuracy_mean,accuracy_std,seconds_mean\n");
        Map<String, Object> summary = new LinkedHashMap<>();
        for (String name : names) {
            Path trainF = data.resolve(name + "_train.csv");
            Path testF = data.resolve(name + "_test.csv");
            if (!Files.exists(trainF)) {
                progress.println("skipping " + name + ": " + trainF + " not found");
                continue;
            }
            Dataset train = DatasetIO.readCsv(trainF, 1.0, DatasetIO.RowNormPolicy.REJECT).dataset();
            Dataset test = DatasetIO.readCsv(testF, 1.0, DatasetIO.RowNormPolicy.REJECT).dataset();
            Study study = new Study(name, Problem.of(train, Losses.logistic()), test,
                    quick ? 2 : (train.size() > 10_000 ? 5 : 20));
            List<Plots.Series> series = new ArrayList<>();
            for (Map.Entry<String, Supplier<PrivateOptimizer>> alg : algorithms().entrySet()) {
                double[] means = new double[EPSILONS.length];
                for (int k = 0; k < EPSILONS.length; k++) {
                    means[k] = cell(study, alg.getKey(), alg.getValue(), EPSILONS[k], csv, progress);
                    if (EPSILONS[k] == 1) {
                        summary.put(name + " " + alg.getKey() + " acc@eps=1", round(means[k]));
                    }
                }
                series.add(new Plots.Series(alg.getKey(), EPSILONS, means));
            }
            series.addAll(peerSeries(peers, name, summary));
            Plots.line(out.resolve("real-data-" + fileLabel(name) + ".png"), name + ": test accuracy vs epsilon (delta=1e-5)",
                    "epsilon", "test accuracy", series, false, false);
        }
        Files.writeString(out.resolve("real-data.csv"), csv.toString());
        return summary;
    }

    /** The mean test accuracy of one algorithm at one ε over the study's seeded runs (a CSV row, a progress line). */
    private static double cell(Study s, String label, Supplier<PrivateOptimizer> alg, double eps, StringBuilder csv,
            PrintWriter progress) {
        int runs = s.runs();
        double[] acc = new double[runs];
        double secs = 0;
        for (int r = 0; r < runs; r++) {
            long t0 = System.nanoTime();
            PrivateOptimizer opt = alg.get();
            var res = opt.optimize(s.problem(), PrivacyBudget.of(eps, 1e-5), Rngs.seeded(100 + r));
            secs += (System.nanoTime() - t0) / 1e9;
            acc[r] = Metrics.accuracy(res.solution(), s.test());
        }
        double mean = java.util.Arrays.stream(acc).average().orElse(Double.NaN);
        double sd = Math.sqrt(java.util.Arrays.stream(acc).map(a -> (a - mean) * (a - mean)).sum()
                / Math.max(1, runs - 1));
        csv.append(String.format("%s,%s,%s,1e-5,%d,%.6f,%.6f,%.4f%n", s.name(), label, eps, runs, mean, sd,
                secs / runs));
        progress.printf("%s %s eps=%s: %.4f ± %.4f (%.3f s/run)%n", s.name(), label, eps, mean, sd, secs / runs);
        progress.flush();
        return mean;
    }

    /** The peers' accuracy curves on a dataset, for those with a number at every ε (their ε = 1 value summarized). */
    private static List<Plots.Series> peerSeries(Map<String, Double> peers, String name, Map<String, Object> summary) {
        List<Plots.Series> series = new ArrayList<>();
        for (String peer : new String[] {"opacus-1.4.0(torch-1.13.1;RDP)", "diffprivlib-0.6.6"}) {
            double[] ys = new double[EPSILONS.length];
            boolean all = true;
            for (int k = 0; k < EPSILONS.length; k++) {
                Double v = peers.get(peer + "|" + name + "|" + fmt(EPSILONS[k]));
                all &= v != null;
                ys[k] = v == null ? Double.NaN : v;
            }
            if (all) {
                series.add(new Plots.Series(peer, EPSILONS, ys));
                summary.put(name + " " + peer + " acc@eps=1", peers.get(peer + "|" + name + "|1"));
            }
        }
        return series;
    }

    /**
     * File label of a dataset's result files: Adult's results are filed as "census-income" (its UCI
     * alternative name), so that no tracked file name suggests the Adult data itself is in the project.
     */
    static String fileLabel(String dataset) {
        return "adult".equals(dataset) ? "census-income" : dataset;
    }

    private static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }

    private static String fmt(double e) {
        return e == Math.rint(e) ? String.valueOf((long) e) : String.valueOf(e);
    }

    static Map<String, Double> readPeers(Path f) throws Exception {
        Map<String, Double> m = new LinkedHashMap<>();
        if (!Files.exists(f)) {
            return m;
        }
        try (BufferedReader br = Files.newBufferedReader(f)) {
            String line = br.readLine();
            while ((line = br.readLine()) != null) {
                String[] p = line.split(",");
                if (p.length >= 5) {
                    m.put(p[0] + "|" + p[1] + "|" + p[2], Double.parseDouble(p[4]));
                }
            }
        }
        return m;
    }
}
