package org.dpopt.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The real-data suite's results: one {@link Cell} per dataset, algorithm and ε; written as
 * {@code real-data.csv} (one row per cell), {@code real-data-runs.csv} (one row per run),
 * {@code real-data.md} (a table per ε) and one plot per dataset ({@code real-data-<name>.png}, error
 * bars = standard deviation over the seeds).
 */
final class RealDataReport {

    /** The runs of one algorithm at one ε on one dataset; {@code error} non-null when a run failed. */
    record Cell(String dataset, String algorithm, double epsilon, double[] accuracy, double[] seconds,
            double majority, String error) {
        static Cell failed(String dataset, String algorithm, double eps, String error) {
            return new Cell(dataset, algorithm, eps, new double[0], new double[0], Double.NaN, error);
        }

        double mean() {
            return error != null ? Double.NaN : Arrays.stream(accuracy).average().orElse(Double.NaN);
        }

        /** The sample standard deviation over the seeds (0 for one run). */
        double std() {
            double m = mean();
            double ss = Arrays.stream(accuracy).map(a -> (a - m) * (a - m)).sum();
            return accuracy.length < 2 ? 0 : Math.sqrt(ss / (accuracy.length - 1));
        }

        double secondsMean() {
            return Arrays.stream(seconds).average().orElse(Double.NaN);
        }

        /** Runs whose accuracy is at or below the majority-class rate. */
        long atOrBelowMajority() {
            return Arrays.stream(accuracy).filter(a -> a <= majority).count();
        }
    }

    private final RealDataPeers peers;
    private final List<String> algorithms;
    private final double[] epsilons;
    private final List<Cell> cells = new ArrayList<>();

    RealDataReport(RealDataPeers peers, List<String> algorithms, double[] epsilons) {
        this.peers = peers;
        this.algorithms = List.copyOf(algorithms);
        this.epsilons = epsilons.clone();
    }

    void add(Cell c) {
        cells.add(c);
    }

    /** The cell of a dataset, algorithm and ε, or null. */
    Cell get(String dataset, String algorithm, double eps) {
        for (Cell c : cells) {
            if (c.dataset().equals(dataset) && c.algorithm().equals(algorithm) && c.epsilon() == eps) {
                return c;
            }
        }
        return null;
    }

    /** The majority-class rate of a dataset's test labels as the runs reported it (else the peers' table). */
    double majority(String dataset) {
        for (Cell c : cells) {
            if (c.dataset().equals(dataset) && c.error() == null) {
                return c.majority();
            }
        }
        return peers.majority(dataset);
    }

    /** Writes the CSV files, the markdown table and the plots. */
    void write(Path out, List<String> datasets) throws IOException {
        StringBuilder csv = new StringBuilder("dataset,algorithm,epsilon,delta,seeds,accuracy_mean,accuracy_std,"
                + "runs_at_or_below_majority,majority_rate,diffprivlib_best,opacus,seconds_mean,error\n");
        StringBuilder runs = new StringBuilder("dataset,algorithm,epsilon,seed,test_accuracy,seconds\n");
        for (Cell c : cells) {
            csv.append(String.format(Locale.ROOT, "%s,%s,%s,1e-5,%d,%.6f,%.6f,%d,%.6f,%.6f,%.6f,%.4f,%s%n",
                    c.dataset(), c.algorithm(), RealDataPeers.fmt(c.epsilon()), c.accuracy().length, c.mean(), c.std(),
                    c.atOrBelowMajority(), c.majority(), peers.diffprivlibBest(c.dataset(), c.epsilon()),
                    peers.opacus(c.dataset(), c.epsilon()), c.secondsMean(),
                    c.error() == null ? "" : "\"" + c.error().replace('"', '\'') + "\""));
            for (int r = 0; r < c.accuracy().length; r++) {
                runs.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%.6f,%.4f%n", c.dataset(), c.algorithm(),
                        RealDataPeers.fmt(c.epsilon()), RealDataSuite.FIRST_SEED + r, c.accuracy()[r], c.seconds()[r]));
            }
        }
        Files.writeString(out.resolve("real-data.csv"), csv.toString());
        Files.writeString(out.resolve("real-data-runs.csv"), runs.toString());
        Files.writeString(out.resolve("real-data.md"), new RealDataMarkdown(this, peers, algorithms, epsilons)
                .render(datasets));
        for (String d : datasets) {
            plot(out, d);
        }
    }

    private void plot(Path out, String dataset) {
        List<Plots.Series> series = new ArrayList<>();
        for (int a = 0; a < algorithms.size(); a++) {
            String alg = algorithms.get(a);
            double[] x = new double[epsilons.length];
            double[] y = new double[epsilons.length];
            double[] err = new double[epsilons.length];
            for (int k = 0; k < epsilons.length; k++) {
                Cell c = get(dataset, alg, epsilons[k]);
                // each algorithm's points are moved sideways by a few percent so that the error bars do not overlap
                x[k] = epsilons[k] * (1 + 0.025 * (a - (algorithms.size() - 1) / 2.0));
                y[k] = c == null ? Double.NaN : c.mean();
                err[k] = c == null || c.error() != null ? 0 : c.std();
            }
            series.add(new Plots.Series(alg, x, y, err));
        }
        double[] dpl = new double[epsilons.length];
        double[] opacus = new double[epsilons.length];
        double[] majority = new double[epsilons.length];
        for (int k = 0; k < epsilons.length; k++) {
            dpl[k] = peers.diffprivlibBest(dataset, epsilons[k]);
            opacus[k] = peers.opacus(dataset, epsilons[k]);
            majority[k] = majority(dataset);
        }
        addIfFinite(series, "diffprivlib 0.6.6 (best C)", dpl);
        addIfFinite(series, "Opacus 1.4.0", opacus);
        addIfFinite(series, "majority class", majority);
        Plots.line(out.resolve("real-data-" + fileLabel(dataset) + ".png"), dataset + ": defaults, delta=1e-5 (bars: std over seeds)", "epsilon (points offset sideways)",
                "test accuracy", series, epsilons.length > 1, false);
    }

    private void addIfFinite(List<Plots.Series> series, String name, double[] y) {
        if (Arrays.stream(y).allMatch(Double::isFinite)) {
            series.add(new Plots.Series(name, epsilons, y));
        }
    }

    /** The summary printed by {@code dpopt bench}: every algorithm's mean at ε = 1 (or the first ε) per dataset. */
    Map<String, Object> summary(List<String> datasets) {
        double eps = Arrays.stream(epsilons).anyMatch(e -> e == 1) ? 1 : epsilons[0];
        Map<String, Object> s = RealDataSuite.newSummary();
        for (String d : datasets) {
            for (String alg : algorithms) {
                Cell c = get(d, alg, eps);
                s.put(RealDataSuite.key(d, alg, eps), c == null ? null : round(c.mean()));
            }
            s.put(RealDataSuite.key(d, "diffprivlib-best", eps), peers.diffprivlibBest(d, eps));
            s.put(RealDataSuite.key(d, "opacus", eps), peers.opacus(d, eps));
            s.put(d + " majority rate", round(majority(d)));
        }
        return s;
    }

    private static Double round(double v) {
        return Double.isFinite(v) ? Math.round(v * 10000) / 10000.0 : null;
    }

    /**
     * File label of a dataset's result files: Adult's results are filed as "census-income" (its UCI
     * alternative name), so that no tracked file name suggests the Adult data itself is in the project.
     */
    static String fileLabel(String dataset) {
        return "adult".equals(dataset) ? "census-income" : dataset;
    }
}
