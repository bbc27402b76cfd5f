package org.dpopt.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dpopt.cli.Main;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The intercept on the binary datasets (validation profile): every classification algorithm, run as
 * {@code dpopt train --algorithm A --data train.csv --test-data test.csv --epsilon 1 --delta 1e-5} with its
 * defaults, with and without {@code --no-intercept} (30 seeds for dp-sgd, 10 for the others), on the bundled
 * breast_cancer, heart_scale
 * and diabetes splits. Writes {@code validation/results/intercept/intercept.csv}; the table is in
 * {@code validation/intercept.md}. ({@code pg-mirror-descent} is left out: its default loss is a
 * regression loss until its classification defaults exist.)
 */
@Tag("slow")
class InterceptValidationTest {
    /** Seeds per configuration: 30 for dp-sgd (the claim), 10 for the others (recorded, not asserted). */
    static int seeds(String algorithm) {
        return "dp-sgd".equals(algorithm) ? 30 : 10;
    }

    static final String[][] ALGORITHMS = {
        {"dp-sgd"}, {"nsgd"}, {"non-private"}, {"phased-sgd"}, {"prox-sgd"},
        {"objective-perturbation", "--radius", "20"}, {"objective-perturbation-svrg", "--radius", "20"},
        {"noisy-frank-wolfe"}, {"vr-frank-wolfe"}, {"noisy-sfw"}};

    static Path split(Path dir, String name, boolean test) throws Exception {
        String csv;
        String rows;
        try (var in = InterceptValidationTest.class.getResourceAsStream("/datasets/" + name + ".csv");
                var r = InterceptValidationTest.class.getResourceAsStream("/datasets/" + name + "_test_rows.txt")) {
            csv = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            rows = new String(r.readAllBytes(), StandardCharsets.UTF_8);
        }
        java.util.Set<Integer> testRows = new java.util.HashSet<>();
        rows.lines().filter(l -> !l.isBlank()).forEach(l -> testRows.add(Integer.parseInt(l.strip())));
        List<String> lines = csv.lines().toList();
        StringBuilder sb = new StringBuilder(lines.get(0)).append('\n');
        for (int i = 1; i < lines.size(); i++) {
            if (testRows.contains(i - 1) == test) {
                sb.append(lines.get(i)).append('\n');
            }
        }
        Path f = dir.resolve(name + (test ? "_test.csv" : "_train.csv"));
        Files.writeString(f, sb.toString());
        return f;
    }

    static double accuracy(String[] alg, Path train, Path test, boolean intercept, long seed) throws Exception {
        List<String> args = new ArrayList<>(List.of("train", "--algorithm", alg[0]));
        args.addAll(List.of(alg).subList(1, alg.length));
        args.addAll(List.of("--data", train.toString(), "--test-data", test.toString(), "--seed", Long.toString(seed),
                "--json"));
        if (!"non-private".equals(alg[0])) {
            args.addAll(List.of("--epsilon", "1", "--delta", "1e-5"));
        }
        if (!intercept) {
            args.add("--no-intercept");
        }
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args.toArray(new String[0]));
        assertEquals(0, code, String.join(" ", args) + ": " + err);
        JsonNode j = new ObjectMapper().readTree(out.toString());
        return j.get("test_accuracy").asDouble();
    }

    @Test
    void interceptOnAndOffOnTheBinaryDatasets(@TempDir Path dir) throws Exception {
        StringBuilder csv = new StringBuilder("algorithm,dataset,intercept,seeds,mean_accuracy,std_accuracy\n");
        for (String name : new String[] {"breast_cancer", "heart_scale", "diabetes"}) {
            Path train = split(dir, name, false);
            Path test = split(dir, name, true);
            for (String[] alg : ALGORITHMS) {
                double[] means = new double[2];
                for (int on = 1; on >= 0; on--) {
                    double[] acc = new double[seeds(alg[0])];
                    for (int s = 0; s < acc.length; s++) {
                        acc[s] = accuracy(alg, train, test, on == 1, 100 + s);
                    }
                    double[] ms = ObjectivePerturbationValidationTest.meanStd(acc);
                    means[on] = ms[0];
                    csv.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%.4f,%.4f%n", alg[0], name, on == 1, acc.length,
                            ms[0], ms[1]));
                }
                if ("dp-sgd".equals(alg[0])) {
                    // claim: the default intercept costs DP-SGD at most 0.03 of mean accuracy on these sets. Per-seed
                    // standard deviations are at most about 0.06, so the difference of two 30-seed means has a
                    // standard error of at most 0.016: with no true difference, a false failure has probability
                    // below 3 % per set (below 0.1 % on breast_cancer and diabetes, where the deviation is 0.04)
                    assertTrue(means[1] >= means[0] - 0.03, name + ": with " + means[1] + " without " + means[0]);
                }
            }
        }
        Path out = Path.of("validation/results/intercept");
        Files.createDirectories(out);
        Files.writeString(out.resolve("intercept.csv"), csv.toString());
    }
}
