package org.dpopt.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The markdown form of the real-data results: per ε a table (algorithms × datasets, mean ± std over the
 * seeds) with the peers and the majority-class rate below it, and a plain list of where each algorithm
 * is below diffprivlib's best setting or at or below the majority-class rate.
 */
final class RealDataMarkdown {
    private final RealDataReport report;
    private final RealDataPeers peers;
    private final List<String> algorithms;
    private final double[] epsilons;

    RealDataMarkdown(RealDataReport report, RealDataPeers peers, List<String> algorithms, double[] epsilons) {
        this.report = report;
        this.peers = peers;
        this.algorithms = algorithms;
        this.epsilons = epsilons;
    }

    String render(List<String> datasets) {
        StringBuilder md = new StringBuilder("# real-data: dpopt train's defaults on real data\n\n");
        md.append("Mean ± std of the test accuracy over the research-mode seeds (").append(RealDataSuite.FIRST_SEED)
                .append(", ...), δ = 1e-5, each run `dpopt train --algorithm A --data N_train.csv --test-data "
                        + "N_test.csv --epsilon E --delta 1e-5 --seed S` (plus `--loss hinge` for phased-sgd and "
                        + "prox-sgd). ↓: mean below diffprivlib's best regularization setting at the same ε; "
                        + "✗: mean at or below the majority-class rate of the test labels; k/N: runs at or below "
                        + "it.\n");
        for (double eps : epsilons) {
            md.append("\n## ε = ").append(RealDataPeers.fmt(eps)).append("\n\n");
            table(md, datasets, eps);
            md.append('\n');
            shortfalls(md, datasets, eps);
        }
        return md.toString();
    }

    private void table(StringBuilder md, List<String> datasets, double eps) {
        md.append("| algorithm |");
        datasets.forEach(d -> md.append(' ').append(d).append(" |"));
        md.append("\n|---|");
        datasets.forEach(d -> md.append("---|"));
        md.append('\n');
        for (String alg : algorithms) {
            md.append("| `").append(alg).append("` |");
            for (String d : datasets) {
                md.append(' ').append(cell(report.get(d, alg, eps), d, eps)).append(" |");
            }
            md.append('\n');
        }
        row(md, "diffprivlib 0.6.6, best C", datasets, d -> peers.diffprivlibBest(d, eps));
        row(md, "Opacus 1.4.0", datasets, d -> peers.opacus(d, eps));
        row(md, "majority class of the test labels", datasets, report::majority);
    }

    private static void row(StringBuilder md, String label, List<String> datasets,
            java.util.function.ToDoubleFunction<String> value) {
        md.append("| ").append(label).append(" |");
        for (String d : datasets) {
            double v = value.applyAsDouble(d);
            md.append(' ').append(Double.isFinite(v) ? f3(v) : "–").append(" |");
        }
        md.append('\n');
    }

    private String cell(RealDataReport.Cell c, String dataset, double eps) {
        if (c == null) {
            return "–";
        }
        if (c.error() != null) {
            return "failed";
        }
        StringBuilder s = new StringBuilder(f3(c.mean()) + " ± " + f3(c.std()));
        if (c.mean() < peers.diffprivlibBest(dataset, eps)) {
            s.append(" ↓");
        }
        if (c.mean() <= c.majority()) {
            s.append(" ✗");
        }
        if (c.atOrBelowMajority() > 0) {
            s.append(' ').append(c.atOrBelowMajority()).append('/').append(c.accuracy().length);
        }
        return s.toString();
    }

    /** One line per algorithm that falls short at this ε somewhere, naming the datasets. */
    private void shortfalls(StringBuilder md, List<String> datasets, double eps) {
        for (String alg : algorithms) {
            List<String> belowPeer = new ArrayList<>();
            List<String> belowMajority = new ArrayList<>();
            List<String> failed = new ArrayList<>();
            for (String d : datasets) {
                RealDataReport.Cell c = report.get(d, alg, eps);
                if (c == null) {
                    continue;
                }
                if (c.error() != null) {
                    failed.add(d);
                } else {
                    if (c.mean() < peers.diffprivlibBest(d, eps)) {
                        belowPeer.add(d);
                    }
                    if (c.mean() <= c.majority()) {
                        belowMajority.add(d);
                    }
                }
            }
            StringBuilder line = new StringBuilder();
            append(line, "below diffprivlib's best setting on ", belowPeer);
            append(line, "at or below the majority-class rate on ", belowMajority);
            append(line, "failed on ", failed);
            if (line.length() > 0) {
                md.append("- `").append(alg).append("`: ").append(line).append(".\n");
            }
        }
    }

    private static void append(StringBuilder line, String what, List<String> datasets) {
        if (!datasets.isEmpty()) {
            line.append(line.length() > 0 ? "; " : "").append(what).append(String.join(", ", datasets));
        }
    }

    private static String f3(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }
}
