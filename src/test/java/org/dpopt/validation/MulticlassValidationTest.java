package org.dpopt.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.dpopt.data.Splits;
import org.dpopt.models.DpLogisticRegression;
import org.dpopt.models.Model;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * k-class DP-SGD (the {@code DpLogisticRegression} defaults: multinomial loss, intercept, 30 epochs,
 * clip 1, learning rate 1) on digits (10 classes) and wine (3 classes), fixed splits, δ = 1e-5, against
 * diffprivlib and Opacus on the same splits ({@code /multiclass/peers-accuracy-multiclass.csv}).
 * The defaults were not tuned on these test splits. Results: {@code validation/multiclass.md}.
 */
class MulticlassValidationTest {
    static final double DELTA = 1e-5;

    /** Mean test accuracy over seeds 1..seeds. */
    static double meanAccuracy(Splits.Split s, double eps, int seeds) {
        double sum = 0;
        for (int seed = 1; seed <= seeds; seed++) {
            Model m = DpLogisticRegression.builder().epsilon(eps).delta(DELTA).seed(seed).build().fit(s.train());
            sum += m.accuracy(s.test());
        }
        return sum / seeds;
    }

    /** A peer's mean accuracy at ε from the reference table (the best of a library's rows when several). */
    static double peer(String libraryPrefix, String dataset, double eps) throws IOException {
        double best = Double.NaN;
        try (InputStream in = MulticlassValidationTest.class.getResourceAsStream(
                "/multiclass/peers-accuracy-multiclass.csv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().skip(1).toList()) {
                String[] f = line.split(",");
                if (f[0].startsWith(libraryPrefix) && f[1].equals(dataset) && Double.parseDouble(f[2]) == eps) {
                    double a = Double.parseDouble(f[4]);
                    best = Double.isNaN(best) ? a : Math.max(best, a);
                }
            }
        }
        assertTrue(!Double.isNaN(best), "no reference row for " + libraryPrefix + " " + dataset + " " + eps);
        return best;
    }

    /**
     * Fast check (default suite): at ε = 1, wine over 10 seeds and digits over 3 seeds, far above
     * diffprivlib and chance. Per-seed standard deviations are about 0.13 (wine) and 0.025 (digits), so
     * the bars 0.55 and 0.80 sit 4.9 and 4.8 standard errors below the measured means (0.75, 0.87):
     * under another seed stream a false failure has probability below 1e-6.
     */
    @Test
    void kClassDpSgdBeatsDiffprivlibFast() throws IOException {
        double wine = meanAccuracy(MulticlassData.split("wine"), 1.0, 10);
        double digits = meanAccuracy(MulticlassData.split("digits"), 1.0, 3);
        assertTrue(wine >= 0.55 && wine > peer("diffprivlib", "wine", 1), "wine " + wine);
        assertTrue(digits >= 0.80 && digits > peer("diffprivlib", "digits", 1), "digits " + digits);
    }

    /**
     * The full measurement (validation profile): ε ∈ {0.5, 1, 2, 5}, 100 seeds on wine and 20 on digits;
     * writes {@code validation/results/multiclass/multiclass.csv}. Claim at ε = 1: at least the best
     * diffprivlib row and within 0.02 of Opacus. Standard errors of the means are about 0.013 (wine) and
     * 0.006 (digits); the claim's margins at the measured means are 1.7 and 8 standard errors, so a false
     * failure under another seed stream has probability about 0.05 (wine) and below 1e-9 (digits).
     */
    @Test
    @Tag("slow")
    void kClassDpSgdAgainstPeers() throws IOException {
        StringBuilder csv = new StringBuilder("dataset,epsilon,seeds,dpopt_accuracy,opacus_accuracy,"
                + "diffprivlib_best_accuracy\n");
        for (String name : new String[] {"wine", "digits"}) {
            Splits.Split s = MulticlassData.split(name);
            int seeds = name.equals("wine") ? 100 : 20;
            for (double eps : new double[] {0.5, 1, 2, 5}) {
                double acc = meanAccuracy(s, eps, seeds);
                double opacus = peer("opacus", name, eps);
                double dpl = peer("diffprivlib", name, eps);
                csv.append(String.format(Locale.ROOT, "%s,%s,%d,%.4f,%.4f,%.4f%n", name, eps, seeds, acc, opacus, dpl));
                if (eps == 1) {
                    assertTrue(acc >= dpl, name + ": " + acc + " below diffprivlib " + dpl);
                    assertTrue(acc >= opacus - 0.02, name + ": " + acc + " more than 0.02 below Opacus " + opacus);
                }
            }
        }
        Path out = Path.of("validation/results/multiclass");
        Files.createDirectories(out);
        Files.writeString(out.resolve("multiclass.csv"), csv.toString());
        assertEquals(9, csv.toString().lines().count());
    }
}
