package org.dpopt.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The peers' test accuracies of {@code refdata/peers-accuracy.csv} (columns library, dataset, epsilon,
 * delta, accuracy_mean, …): diffprivlib 0.6.6's logistic regression at its best regularization setting
 * (the largest mean over its default and its C variants at the same ε), Opacus 1.4.0's DP-SGD, and the
 * majority-class rate. A missing file or row gives NaN (the report then shows no peer number).
 */
final class RealDataPeers {
    static final String DIFFPRIVLIB = "diffprivlib-0.6.6";
    static final String OPACUS = "opacus-1.4.0(torch-1.13.1;RDP)";
    static final String MAJORITY = "majority-class";

    private final Map<String, Double> means;

    private RealDataPeers(Map<String, Double> means) {
        this.means = means;
    }

    /** Reads the file (an empty table when it does not exist). */
    static RealDataPeers read(Path file) throws IOException {
        Map<String, Double> m = new LinkedHashMap<>();
        if (Files.exists(file)) {
            try (BufferedReader br = Files.newBufferedReader(file)) {
                String line = br.readLine();
                while ((line = br.readLine()) != null) {
                    String[] p = line.split(",");
                    if (p.length >= 5) {
                        m.put(p[0] + "|" + p[1] + "|" + p[2], Double.parseDouble(p[4]));
                    }
                }
            }
        }
        return new RealDataPeers(m);
    }

    /** diffprivlib's best mean over its regularization settings at ε, or NaN. */
    double diffprivlibBest(String dataset, double eps) {
        double best = Double.NaN;
        String tail = "|" + dataset + "|" + fmt(eps);
        for (Map.Entry<String, Double> e : means.entrySet()) {
            String k = e.getKey();
            boolean ours = k.endsWith(tail) && (k.startsWith(DIFFPRIVLIB + "|") || k.startsWith(DIFFPRIVLIB + "(C="));
            if (ours && !(e.getValue() <= best)) {
                best = e.getValue();
            }
        }
        return best;
    }

    /** Opacus' mean at ε (δ = 1e-5), or NaN. */
    double opacus(String dataset, double eps) {
        return means.getOrDefault(OPACUS + "|" + dataset + "|" + fmt(eps), Double.NaN);
    }

    /** The majority-class rate of the test labels as the peers' table records it, or NaN. */
    double majority(String dataset) {
        return means.getOrDefault(MAJORITY + "|" + dataset + "|inf", Double.NaN);
    }

    /** ε as the table writes it: 1, 0.5, 2, 5. */
    static String fmt(double e) {
        return e == Math.rint(e) ? String.valueOf((long) e) : String.valueOf(e);
    }
}
